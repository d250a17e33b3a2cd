import { useState } from 'react';
import { readString, writeString } from '../../lib/storage.ts';

const ID_SORT_KEY = 'id-sort';
const TAG_MODE_KEY = 'tag-mode';

function useStoredFlag(key: string): [boolean, (v: boolean) => void] {
  const [value, setValue] = useState(() => readString(key) === 'true');
  return [
    value,
    (v: boolean) => {
      setValue(v);
      writeString(key, String(v));
    },
  ];
}

/** The list options id_sort and tag_mode, remembered like new-api's console does. */
export function useListOptions() {
  const [idSort, setIdSort] = useStoredFlag(ID_SORT_KEY);
  const [tagMode, setTagMode] = useStoredFlag(TAG_MODE_KEY);
  return { idSort, setIdSort, tagMode, setTagMode };
}
