import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { ScrollCue } from '../../components/ScrollCue.tsx';
import { useState } from 'react';
import { RECIPIENT_PICKER_PAGE_SIZE } from '../../../shared/schemas/messages.ts';
import { trpc } from '../../trpc.ts';

export interface PickedUser {
  id: number;
  username: string;
  display_name: string;
}

interface RecipientPickerProps {
  /** Selected users by id; kept across pages and searches. */
  selected: Map<number, PickedUser>;
  onChange: (next: Map<number, PickedUser>) => void;
  error?: string | null;
}

/** Searchable user table with a checkbox per row and select-all-on-page, 20 per page. */
export function RecipientPicker({ selected, onChange, error }: RecipientPickerProps) {
  const { t } = useLingui();
  const [keyword, setKeyword] = useState('');
  const [debounced] = useDebouncedValue(keyword.trim(), 300);
  const [page, setPage] = useState(1);
  const users = trpc.users.list.useQuery(
    { page, pageSize: RECIPIENT_PICKER_PAGE_SIZE, keyword: debounced || undefined },
    { placeholderData: (prev) => prev },
  );
  const records: PickedUser[] = (users.data?.items ?? []).map((u) => ({
    id: u.id,
    username: u.username,
    display_name: u.display_name,
  }));

  // The table reports this page's selection; selections on other pages stay as they were.
  const onPageSelection = (rows: PickedUser[]) => {
    const next = new Map(selected);
    for (const r of records) next.delete(r.id);
    for (const r of rows) next.set(r.id, r);
    onChange(next);
  };
  const count = selected.size;

  return (
    <Stack gap="xs">
      <Group justify="space-between" align="flex-end" gap="xs">
        <TextInput
          label={t`Recipients`}
          withAsterisk
          placeholder={t`Search users`}
          leftSection={<IconSearch size={14} />}
          value={keyword}
          onChange={(e) => {
            setKeyword(e.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: 1, minWidth: 200 }}
        />
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" c={count ? 'indigo' : 'dimmed'} fw={500} data-testid="recipient-count">
            <Trans>{count} selected</Trans>
          </Text>
          {count > 0 && (
            <Button variant="subtle" size="compact-sm" onClick={() => onChange(new Map())}>
              <Trans>Clear</Trans>
            </Button>
          )}
        </Group>
      </Group>
      <ScrollCue>
        <DataTable<PickedUser>
          withTableBorder
          borderRadius="md"
          verticalSpacing={6}
          fz="sm"
          minHeight={records.length ? undefined : 150}
          records={records}
          fetching={users.isFetching}
          columns={[
            { accessor: 'id', title: 'ID', width: 70 },
            { accessor: 'username', title: t`Username` },
            { accessor: 'display_name', title: t`Display name` },
          ]}
          selectedRecords={records.filter((r) => selected.has(r.id))}
          onSelectedRecordsChange={onPageSelection}
          allRecordsSelectionCheckboxProps={{ 'aria-label': t`Select all on this page` }}
          getRecordSelectionCheckboxProps={(r) => ({ 'aria-label': t`Select ${r.username}` })}
          totalRecords={users.data?.total ?? 0}
          recordsPerPage={RECIPIENT_PICKER_PAGE_SIZE}
          page={page}
          onPageChange={setPage}
          paginationText={({ from, to, totalRecords }) => t`${from}-${to} of ${totalRecords}`}
          noRecordsText={t`No users found`}
        />
      </ScrollCue>
      {error && (
        <Text c="red" size="sm">
          {error}
        </Text>
      )}
    </Stack>
  );
}
