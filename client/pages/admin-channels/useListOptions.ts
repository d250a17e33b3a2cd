import { useState } from 'react';
import { readString, writeString } from '../../lib/storage.ts';

const ID_SORT_KEY = 'id-sort';
const TAG_MODE_KEY = 'tag-mode';

const storedFlag = (key: string) => readString(key) === 'true';

/** The remembered list options as the page starts with them (also read by ./first-query.ts before it loads). */
export const storedListOptions = () => ({ idSort: storedFlag(ID_SORT_KEY), tagMode: storedFlag(TAG_MODE_KEY) });

function useStoredFlag(key: string): [boolean, (v: boolean) => void] {
  const [value, setValue] = useState(() => storedFlag(key));
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
