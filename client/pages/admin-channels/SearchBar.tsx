import { useLingui } from '@lingui/react/macro';
import { Button, Group, Select, TextInput } from '@mantine/core';
import { IconCube, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { trpc } from '../../trpc.ts';

export interface ChannelFilter {
  keyword: string;
  model: string;
  group: string;
}

export const noFilter: ChannelFilter = { keyword: '', model: '', group: '' };

/** Search by keyword (id, name, key, base URL), model and group. */
export function SearchBar({ onSearch }: { onSearch: (f: ChannelFilter) => void }) {
  const { t } = useLingui();
  const groups = trpc.groups.list.useQuery();
  const [keyword, setKeyword] = useState('');
  const [model, setModel] = useState('');
  const [group, setGroup] = useState<string | null>(null);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSearch({ keyword: keyword.trim(), model: model.trim(), group: group ?? '' });
      }}
    >
      <Group gap="xs" align="flex-end">
        <TextInput
          placeholder={t`ID, name, key or base URL`}
          aria-label={t`Keyword`}
          leftSection={<IconSearch size={16} />}
          value={keyword}
          onChange={(e) => setKeyword(e.currentTarget.value)}
          style={{ flex: '1 1 220px' }}
          maw={340}
        />
        <TextInput
          placeholder={t`Model`}
          aria-label={t`Model`}
          leftSection={<IconCube size={16} />}
          value={model}
          onChange={(e) => setModel(e.currentTarget.value)}
          style={{ flex: '1 1 160px' }}
          maw={240}
        />
        <Select
          placeholder={t`All groups`}
          aria-label={t`Group`}
          data={groups.data ?? []}
          value={group}
          onChange={setGroup}
          clearable
          style={{ flex: '0 1 160px' }}
        />
        <Button type="submit" variant="light">
          {t`Search`}
        </Button>
      </Group>
    </form>
  );
}
