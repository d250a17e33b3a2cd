import { useLingui } from '@lingui/react/macro';
import { Alert, Button, Stack } from '@mantine/core';
import { DataTable } from 'mantine-datatable';
import { ScrollCue } from '../../../components/ScrollCue.tsx';
import { useMemo, useState } from 'react';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/constants.ts';
import { pageSizeOptions } from '../../../components/usePageSize.ts';
import { errorMessage } from '../../../lib/errors.ts';
import { trpc } from '../../../trpc.ts';
import type { OptionsForm } from '../form/useOptionsForm.ts';
import { PriceEditModal } from './PriceEditModal.tsx';
import { rowsFromMaps, upsertRow, withVideoUnits } from './price-math.ts';
import { useVideoModels } from './useVideoModels.ts';

/** Models served by enabled channels that have neither a ratio nor a fixed price yet. */
export function UnsetModelsTable({ form }: { form: OptionsForm }) {
  const { t } = useLingui();
  const enabled = trpc.channels.enabledModels.useQuery();
  // The channels serving each model, for the operator to see where a model without a price comes from.
  const unpriced = trpc.pricing.unpriced.useQuery();
  const channelsOf = new Map((unpriced.data?.models ?? []).map((m) => [m.model, m.channels]));
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(DEFAULT_PAGE_SIZE);
  const [editing, setEditing] = useState<string | undefined>();
  const editingRow = useMemo(() => (editing ? { name: editing } : undefined), [editing]);
  const video = useVideoModels(form);
  const rows = withVideoUnits(
    rowsFromMaps(form.values.ModelPrice ?? '', form.values.ModelRatio ?? '', form.values.CompletionRatio ?? ''),
    video.units,
  );
  const priced = new Set(rows.filter((r) => r.price !== undefined || r.ratio !== undefined).map((r) => r.name));
  const unset = (enabled.data ?? []).filter((m) => !priced.has(m)).map((name) => ({ name }));

  if (enabled.isError)
    return <Alert color="red">{t`Failed to get enabled models` + `: ${errorMessage(enabled.error)}`}</Alert>;
  return (
    <Stack gap="sm">
      <ScrollCue>
        <DataTable<{ name: string }>
          withTableBorder
          borderRadius="md"
          minHeight={unset.length ? undefined : 150}
          fetching={enabled.isLoading}
          idAccessor="name"
          records={unset.slice((page - 1) * size, page * size)}
          totalRecords={unset.length}
          recordsPerPage={size}
          page={page}
          onPageChange={setPage}
          recordsPerPageOptions={pageSizeOptions}
          onRecordsPerPageChange={(s) => {
            setSize(s);
            setPage(1);
          }}
          recordsPerPageLabel={t`Per page`}
          noRecordsText={t`Every enabled model has a price`}
          paginationText={({ from, to, totalRecords }) => t`${from}-${to} of ${totalRecords}`}
          columns={[
            { accessor: 'name', title: t`Model` },
            {
              accessor: 'channels',
              title: t`Served by`,
              render: (r) => (channelsOf.get(r.name) ?? []).map((c) => `${c.name} #${c.id}`).join(', '),
            },
            {
              accessor: 'actions',
              title: '',
              textAlign: 'right',
              render: (r) => (
                <Button size="compact-sm" variant="light" onClick={() => setEditing(r.name)}>
                  {t`Set price`}
                </Button>
              ),
            },
          ]}
        />
      </ScrollCue>
      <PriceEditModal
        opened={editing !== undefined}
        row={editingRow}
        existingNames={rows.map((r) => r.name)}
        isVideo={video.isVideo}
        onClose={() => setEditing(undefined)}
        onSave={(row) => video.write(rows, upsertRow(rows, row))}
      />
    </Stack>
  );
}
