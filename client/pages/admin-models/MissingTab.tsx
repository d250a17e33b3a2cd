import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Stack, Text } from '@mantine/core';
import { ListTable } from '../../components/DataTable.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';

interface Props {
  onEdit: (row: { model_name: string }) => void;
}

/** Models enabled channels serve that have no metadata row of their own name; one click creates rows. */
export function MissingTab({ onEdit }: Props) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const missing = trpc.modelMeta.missing.useQuery();
  const create = trpc.modelMeta.createMissing.useMutation({
    onSuccess: (created) => {
      showSuccess(plural(created.length, { one: 'Created # model row', other: 'Created # model rows' }));
      void utils.modelMeta.invalidate();
      void utils.pricing.list.invalidate();
    },
    onError: showError,
  });
  const names = missing.data ?? [];
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed" style={{ flex: '1 1 300px' }}>
          <Trans>
            Models your enabled channels serve that have no metadata of their own name. Create a row to give one a
            description, tags and a vendor on the pricing page.
          </Trans>
        </Text>
        <Button
          variant="light"
          disabled={names.length === 0}
          loading={create.isPending && !create.variables?.names}
          onClick={() => create.mutate({})}
        >
          <Trans>Create all</Trans>
        </Button>
      </Group>
      <ListTable<{ model_name: string }>
        records={names.map((model_name) => ({ model_name }))}
        idAccessor="model_name"
        fetching={missing.isLoading}
        noRecordsText={t`Every served model has metadata`}
        columns={[
          { accessor: 'model_name', title: t`Model`, phone: 'title' },
          {
            accessor: 'actions',
            title: t`Actions`,
            textAlign: 'right',
            phone: 'actions',
            render: (r) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Button
                  size="compact-sm"
                  variant="light"
                  data-testid={`create-missing-${r.model_name}`}
                  onClick={() => create.mutate({ names: [r.model_name] })}
                >
                  <Trans>Create</Trans>
                </Button>
                <Button size="compact-sm" variant="default" onClick={() => onEdit(r)}>
                  <Trans>Add with details</Trans>
                </Button>
              </Group>
            ),
          },
        ]}
      />
    </Stack>
  );
}
