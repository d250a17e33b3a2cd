import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ActionIcon, Button, Group, Modal, Stack, Text, Textarea, TextInput, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { ListTable } from '../../components/DataTable.tsx';
import { FormFooter } from '../../components/FormFooter.tsx';
import { MarketIcon } from '../../components/MarketIcon.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';
import type { Vendor } from './types.ts';

/** Vendors: a model's maker as the pricing page shows it (name, icon, description), with how many models name it. */
export function VendorsTab({ vendors, loading }: { vendors: Vendor[]; loading: boolean }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const [editing, setEditing] = useState<Vendor | 'new' | null>(null);
  const changed = () => {
    void utils.vendors.list.invalidate();
    void utils.modelMeta.invalidate();
    void utils.pricing.list.invalidate();
  };
  const remove = trpc.vendors.remove.useMutation({
    onSuccess: ({ detached }) => {
      showSuccess(
        detached
          ? plural(detached, {
              one: 'Vendor deleted; # model no longer has one',
              other: 'Vendor deleted; # models no longer have one',
            })
          : t`Vendor deleted`,
      );
      changed();
    },
    onError: showError,
  });
  const confirmDelete = (v: Vendor) =>
    modals.openConfirmModal({
      title: t`Delete this vendor?`,
      centered: true,
      children: (
        <Text size="sm">
          {v.model_count
            ? plural(v.model_count, {
                one: '# model names this vendor; it will stay, without a vendor.',
                other: '# models name this vendor; they will stay, without a vendor.',
              })
            : t`No model names this vendor.`}
        </Text>
      ),
      labels: { confirm: t`Delete`, cancel: t`Cancel` },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate({ id: v.id }),
    });

  return (
    <Stack gap="sm">
      <Group justify="flex-end">
        <Button onClick={() => setEditing('new')} data-testid="add-vendor">
          <Trans>Add vendor</Trans>
        </Button>
      </Group>
      <ListTable<Vendor>
        records={vendors}
        fetching={loading}
        noRecordsText={t`No vendors yet`}
        columns={[
          {
            accessor: 'name',
            title: t`Vendor`,
            phone: 'title',
            render: (v) => (
              <Group gap={8} wrap="nowrap">
                <MarketIcon icon={v.icon} fallback={v.name} />
                <Text size="sm" fw={500}>
                  {v.name}
                </Text>
              </Group>
            ),
          },
          { accessor: 'description', title: t`Description`, phone: 'wide', render: (v) => v.description ?? '' },
          { accessor: 'model_count', title: t`Models`, phone: 'field' },
          {
            accessor: 'actions',
            title: t`Actions`,
            textAlign: 'right',
            phone: 'actions',
            render: (v) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Tooltip label={t`Edit`} withinPortal>
                  <ActionIcon variant="default" aria-label={t`Edit`} onClick={() => setEditing(v)}>
                    <IconPencil size={14} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t`Delete`} withinPortal>
                  <ActionIcon variant="subtle" color="red" aria-label={t`Delete`} onClick={() => confirmDelete(v)}>
                    <IconTrash size={14} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            ),
          },
        ]}
      />
      <VendorModal editing={editing} onClose={() => setEditing(null)} onSaved={changed} />
    </Stack>
  );
}

function VendorModal({
  editing,
  onClose,
  onSaved,
}: {
  editing: Vendor | 'new' | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useLingui();
  const form = useForm({
    initialValues: { name: '', icon: '', description: '' },
    validate: { name: (v) => (v.trim() ? null : t`Enter the vendor name`) },
  });
  const existing = editing && editing !== 'new' ? editing : undefined;
  useEffect(() => {
    if (!editing) return;
    form.setValues({
      name: existing?.name ?? '',
      icon: existing?.icon ?? '',
      description: existing?.description ?? '',
    });
    // Reset when opened for another vendor only.
  }, [editing]);
  const save = trpc.vendors.save.useMutation({
    onSuccess: () => {
      showSuccess(existing ? t`Vendor updated` : t`Vendor created`);
      onSaved();
      onClose();
    },
    onError: showError,
  });
  return (
    <Modal
      opened={editing !== null}
      onClose={onClose}
      centered
      title={existing ? <Trans>Edit vendor</Trans> : <Trans>Add vendor</Trans>}
    >
      <form onSubmit={form.onSubmit((v) => save.mutate({ id: existing?.id, ...v }))} data-testid="vendor-form">
        <Stack gap="md">
          <TextInput label={t`Name`} withAsterisk {...form.getInputProps('name')} />
          <TextInput
            label={t`Icon`}
            description={t`A picture URL (https://…) or an icon name; a name shows as initials here.`}
            leftSection={<MarketIcon icon={form.values.icon} fallback={form.values.name} size={20} />}
            {...form.getInputProps('icon')}
          />
          <Textarea label={t`Description`} autosize minRows={2} {...form.getInputProps('description')} />
          <FormFooter onCancel={onClose} loading={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
