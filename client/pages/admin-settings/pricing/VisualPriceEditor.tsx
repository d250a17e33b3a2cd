import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Badge, Button, Group, Stack, Switch, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconSearch, IconTrash } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { ScrollCue } from '../../../components/ScrollCue.tsx';
import { useMemo, useState } from 'react';
import { isImageModel } from '../../../../shared/image-models.ts';
import type { OptionsForm } from '../form/useOptionsForm.ts';
import { BatchSetModal } from './BatchSetModal.tsx';
import { PriceEditModal } from './PriceEditModal.tsx';
import { outputPrice, type PriceRow, pricePerMillion, rowsFromMaps, upsertRow, withVideoUnits } from './price-math.ts';
import { useVideoModels } from './useVideoModels.ts';

/** Spec: the visual price editor shows 10 models per page. */
const PAGE_SIZE = 10;

interface Props {
  form: OptionsForm;
  /** Models whose (edited) price is still exactly the shipped preset: marked "Preset". */
  presets: ReadonlySet<string>;
  onlyPresets: boolean;
  setOnlyPresets: (only: boolean) => void;
}

/** Edits ModelPrice / ModelRatio / CompletionRatio as a table; changes stay in the form until Save. */
export function VisualPriceEditor({ form, presets, onlyPresets, setOnlyPresets }: Props) {
  const { t } = useLingui();
  const { units, isVideo, write: writeRows } = useVideoModels(form);
  const rows = useMemo(
    () =>
      withVideoUnits(
        rowsFromMaps(form.values.ModelPrice ?? '', form.values.ModelRatio ?? '', form.values.CompletionRatio ?? ''),
        units,
      ),
    [form.values.ModelPrice, form.values.ModelRatio, form.values.CompletionRatio, units],
  );
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<PriceRow[]>([]);
  const [editing, setEditing] = useState<PriceRow | undefined>();
  const [editorOpen, setEditorOpen] = useState(false);
  const [batchOpen, setBatchOpen] = useState(false);

  const filtered = rows.filter(
    (r) => r.name.toLowerCase().includes(search.trim().toLowerCase()) && (!onlyPresets || presets.has(r.name)),
  );
  const pageRows = filtered.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const write = (next: PriceRow[]) => writeRows(rows, next);
  const open = (row?: PriceRow) => {
    setEditing(row);
    setEditorOpen(true);
  };

  const openBatch = () => {
    if (selected.length === 0) {
      notifications.show({ color: 'yellow', message: t`Please select the models to set first` });
      return;
    }
    setBatchOpen(true);
  };

  const fmt = (n: number | undefined) => (n === undefined ? '-' : String(n));

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder={t`Search models`}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          w={{ base: '100%', xs: 260 }}
        />
        <Group gap="xs">
          {presets.size > 0 && (
            <Switch
              label={t`Only preset prices`}
              checked={onlyPresets}
              onChange={(e) => {
                setOnlyPresets(e.currentTarget.checked);
                setPage(1);
              }}
              data-testid="only-presets"
            />
          )}
          <Button variant="light" onClick={openBatch}>
            <Trans>Batch set</Trans>
          </Button>
          <Button variant="light" onClick={() => open()}>
            <Trans>Add model</Trans>
          </Button>
        </Group>
      </Group>
      <ScrollCue>
        <DataTable<PriceRow>
          withTableBorder
          borderRadius="md"
          minHeight={filtered.length ? undefined : 150}
          idAccessor="name"
          records={pageRows}
          totalRecords={filtered.length}
          recordsPerPage={PAGE_SIZE}
          page={page}
          onPageChange={setPage}
          noRecordsText={t`No data`}
          paginationText={({ from, to, totalRecords }) => t`${from}-${to} of ${totalRecords}`}
          selectedRecords={selected}
          onSelectedRecordsChange={setSelected}
          // Narrow screens scroll the table sideways instead of breaking model names.
          defaultColumnProps={{ noWrap: true }}
          columns={[
            {
              accessor: 'name',
              title: t`Model`,
              render: (r) => (
                // The mark goes under the name when a phone leaves the column too narrow for both.
                <Group gap={6} wrap="wrap">
                  <span data-testid={`price-row-${r.name}`}>{r.name}</span>
                  {presets.has(r.name) && (
                    <Badge size="xs" color="yellow" variant="light" miw="fit-content" data-testid={`preset-${r.name}`}>
                      {t`Preset`}
                    </Badge>
                  )}
                </Group>
              ),
            },
            {
              accessor: 'mode',
              title: t`Billing`,
              render: (r) =>
                r.price !== undefined ? (
                  // max-content: a phone's narrow column cut 按个视频 to 按个… (the table scrolls sideways instead).
                  <Badge color="grape" variant="light" miw="max-content" data-testid={`billing-${r.name}`}>
                    {isVideo(r.name)
                      ? r.videoUnit === 'job'
                        ? t`Per video`
                        : t`Per second`
                      : isImageModel(r.name)
                        ? t`Per image`
                        : t`Per call`}
                  </Badge>
                ) : (
                  <Badge variant="light" miw="max-content">
                    {t`Per token`}
                  </Badge>
                ),
            },
            { accessor: 'ratio', title: t`Ratio`, render: (r) => (r.price !== undefined ? '-' : fmt(r.ratio)) },
            {
              accessor: 'input',
              title: t`Input $/1M`,
              render: (r) => (r.price !== undefined || r.ratio === undefined ? '-' : fmt(pricePerMillion(r.ratio))),
            },
            {
              accessor: 'completionRatio',
              title: t`Completion ratio`,
              render: (r) => (r.price !== undefined ? '-' : fmt(r.completionRatio)),
            },
            {
              accessor: 'output',
              title: t`Output $/1M`,
              render: (r) =>
                r.price !== undefined || r.ratio === undefined || r.completionRatio === undefined
                  ? '-'
                  : fmt(outputPrice(pricePerMillion(r.ratio), r.completionRatio)),
            },
            {
              accessor: 'price',
              title: t`Fixed price`,
              render: (r) => {
                if (r.price === undefined) return '-';
                const amount = `$${r.price}`;
                if (!isVideo(r.name)) return isImageModel(r.name) ? t`${amount} / image` : amount;
                return r.videoUnit === 'job' ? t`${amount} / video` : t`${amount} / second`;
              },
            },
            {
              accessor: 'actions',
              title: '',
              textAlign: 'right',
              render: (r) => (
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    aria-label={t`Edit`}
                    onClick={() => open(r)}
                    data-testid={`edit-${r.name}`}
                  >
                    <IconPencil size={16} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t`Delete`}
                    onClick={() => write(rows.filter((x) => x.name !== r.name))}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              ),
            },
          ]}
        />
      </ScrollCue>
      <PriceEditModal
        opened={editorOpen}
        row={editing}
        existingNames={rows.map((r) => r.name)}
        isVideo={isVideo}
        onClose={() => setEditorOpen(false)}
        onSave={(row, replacing) => write(upsertRow(rows, row, replacing))}
      />
      <BatchSetModal
        opened={batchOpen}
        names={selected.map((r) => r.name)}
        onClose={() => setBatchOpen(false)}
        onApply={(changed) => {
          let next = rows;
          // A batch price keeps each video model's unit.
          for (const r of changed) next = upsertRow(next, { ...r, videoUnit: units[r.name] });
          write(next);
          setSelected([]);
          notifications.show({ color: 'teal', message: t`Applied to ${changed.length} models; save to keep it` });
        }}
      />
    </Stack>
  );
}
