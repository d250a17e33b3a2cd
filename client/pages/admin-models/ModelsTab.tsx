import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Badge, Button, Group, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconPencil, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { NAME_RULES } from '../../../shared/schemas/model-meta.ts';
import { PagedTable } from '../../components/DataTable.tsx';
import { MarketIcon } from '../../components/MarketIcon.tsx';
import { RowMenu } from '../../components/RowMenu.tsx';
import { usePageSize } from '../../components/usePageSize.ts';
import { showError, showSuccess } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';
import type { ModelMeta, Vendor } from './types.ts';

interface Props {
  vendors: Vendor[];
  onEdit: (row: ModelMeta | { model_name: string }) => void;
}

/** The metadata rows: search, a vendor filter, and per row edit, enable/disable and delete. */
export function ModelsTab({ vendors, onEdit }: Props) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const [draft, setDraft] = useState('');
  const [keyword, setKeyword] = useState('');
  const [vendorId, setVendorId] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = usePageSize();
  const list = trpc.modelMeta.list.useQuery(
    { keyword, page, pageSize, vendorId: vendorId === null ? undefined : Number(vendorId) },
    { placeholderData: (prev) => prev },
  );
  const changed = () => {
    void utils.modelMeta.invalidate();
    void utils.vendors.list.invalidate();
    void utils.pricing.list.invalidate();
  };
  const setStatus = trpc.modelMeta.setStatus.useMutation({
    onSuccess: () => {
      showSuccess(t`Operation successful`);
      changed();
    },
    onError: showError,
  });
  const remove = trpc.modelMeta.remove.useMutation({
    onSuccess: () => {
      showSuccess(t`Model deleted`);
      changed();
    },
    onError: showError,
  });
  const vendorOf = (id?: number) => vendors.find((v) => v.id === id);
  const ruleText: Record<number, string> = {
    [NAME_RULES.prefix]: t`starts with`,
    [NAME_RULES.contains]: t`contains`,
    [NAME_RULES.suffix]: t`ends with`,
  };
  const confirmDelete = (row: ModelMeta) =>
    modals.openConfirmModal({
      title: t`Delete this model's metadata?`,
      centered: true,
      children: (
        <Text size="sm">
          <Trans>The pricing page will show "{row.model_name}" without a description, tags or vendor.</Trans>
        </Text>
      ),
      labels: { confirm: t`Delete`, cancel: t`Cancel` },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate({ id: row.id }),
    });
  const search = () => {
    setKeyword(draft.trim());
    setPage(1);
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        <Group gap="xs" style={{ flex: '1 1 320px' }}>
          <TextInput
            style={{ flex: '1 1 200px', maxWidth: 320 }}
            leftSection={<IconSearch size={16} />}
            placeholder={t`Search name, description or tags`}
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Enter' && search()}
          />
          <Select
            w={180}
            placeholder={t`All vendors`}
            aria-label={t`Vendor`}
            data={vendors.map((v) => ({ value: String(v.id), label: v.name }))}
            value={vendorId}
            onChange={(v) => {
              setVendorId(v);
              setPage(1);
            }}
            clearable
          />
        </Group>
        <Button onClick={() => onEdit({ model_name: '' })} data-testid="add-model">
          <Trans>Add model</Trans>
        </Button>
      </Group>
      <PagedTable<ModelMeta>
        records={list.data?.items ?? []}
        total={list.data?.total ?? 0}
        page={page}
        pageSize={pageSize}
        onPageChange={setPage}
        onPageSizeChange={(size) => {
          setPageSize(size);
          setPage(1);
        }}
        fetching={list.isFetching}
        noRecordsText={t`No model metadata yet: add a model, or create one from the missing models`}
        rowStyle={(r) => (r.status === 1 ? undefined : { opacity: 0.55 })}
        columns={[
          {
            accessor: 'model_name',
            title: t`Model`,
            phone: 'title',
            render: (r) => (
              <Group gap={8} wrap="nowrap">
                <MarketIcon icon={r.icon ?? vendorOf(r.vendor_id)?.icon} fallback={r.model_name} />
                <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
                  {r.model_name}
                </Text>
                {r.name_rule !== NAME_RULES.exact && (
                  <Badge size="xs" variant="light" tt="none">
                    {ruleText[r.name_rule]} · {r.matched_count ?? 0}
                  </Badge>
                )}
              </Group>
            ),
          },
          {
            accessor: 'status',
            title: t`Status`,
            phone: 'badge',
            render: (r) =>
              r.status === 1 ? (
                <Badge color="green" variant="light" miw="max-content">{t`Shown`}</Badge>
              ) : (
                <Badge color="gray" variant="light" miw="max-content">{t`Hidden`}</Badge>
              ),
          },
          {
            accessor: 'vendor_id',
            title: t`Vendor`,
            phone: 'field',
            render: (r) => vendorOf(r.vendor_id)?.name ?? '-',
          },
          {
            accessor: 'description',
            title: t`Description`,
            phone: 'wide',
            ellipsis: true,
            render: (r) => r.description ?? '',
          },
          {
            accessor: 'tags',
            title: t`Tags`,
            phone: 'field',
            render: (r) => (
              <Group gap={4}>
                {(r.tags ?? '')
                  .split(',')
                  .filter(Boolean)
                  .map((tag) => (
                    <Badge key={tag} size="sm" variant="outline" tt="none">
                      {tag}
                    </Badge>
                  ))}
              </Group>
            ),
          },
          {
            accessor: 'bound_channels',
            title: t`Served by`,
            visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.lg})`,
            render: (r) => (r.bound_channels ?? []).map((c) => c.name).join(', ') || '-',
          },
          {
            accessor: 'actions',
            title: t`Actions`,
            textAlign: 'right',
            width: 100,
            phone: 'actions',
            render: (r) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Tooltip label={t`Edit`} withinPortal>
                  <ActionIcon variant="default" aria-label={t`Edit`} onClick={() => onEdit(r)}>
                    <IconPencil size={14} />
                  </ActionIcon>
                </Tooltip>
                <RowMenu
                  enabled={r.status === 1}
                  onToggle={() => setStatus.mutate({ id: r.id, status: r.status === 1 ? 0 : 1 })}
                  onDelete={() => confirmDelete(r)}
                  loading={setStatus.isPending}
                />
              </Group>
            ),
          },
        ]}
      />
    </Stack>
  );
}
