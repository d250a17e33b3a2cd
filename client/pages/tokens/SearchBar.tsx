import { useLingui } from '@lingui/react/macro';
import { Button, Group, TextInput } from '@mantine/core';
import { IconKey, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';

export interface TokenFilter {
  keyword: string;
  key: string;
}

/** Search by token name and by key; both trimmed. */
export function SearchBar({ onSearch }: { onSearch: (f: TokenFilter) => void }) {
  const { t } = useLingui();
  const [keyword, setKeyword] = useState('');
  const [key, setKey] = useState('');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSearch({ keyword: keyword.trim(), key: key.trim() });
      }}
    >
      <Group gap="xs" align="flex-end">
        <TextInput
          placeholder={t`Token name`}
          aria-label={t`Token name`}
          leftSection={<IconSearch size={16} />}
          value={keyword}
          onChange={(e) => setKeyword(e.currentTarget.value)}
          style={{ flex: '1 1 200px' }}
          maw={320}
        />
        <TextInput
          placeholder={t`Key`}
          aria-label={t`Key`}
          leftSection={<IconKey size={16} />}
          value={key}
          onChange={(e) => setKey(e.currentTarget.value)}
          style={{ flex: '1 1 200px' }}
          maw={320}
        />
        <Button type="submit" variant="light">
          {t`Search`}
        </Button>
      </Group>
    </form>
  );
}
