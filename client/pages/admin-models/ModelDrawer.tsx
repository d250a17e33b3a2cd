import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Drawer, Select, Stack, Switch, TagsInput, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { NAME_RULES } from '../../../shared/schemas/model-meta.ts';
import { FormFooter } from '../../components/FormFooter.tsx';
import { JsonTextarea } from '../../components/JsonTextarea.tsx';
import { MarketIcon } from '../../components/MarketIcon.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';
import type { ModelMeta, Vendor } from './types.ts';

interface Props {
  /** The row being edited, or a new row's name (from the missing list); null when closed. */
  editing: ModelMeta | { model_name: string } | null;
  vendors: Vendor[];
  onClose: () => void;
}

interface Values {
  model_name: string;
  name_rule: string;
  description: string;
  tags: string[];
  vendor_id: string | null;
  icon: string;
  endpoints: string;
  enabled: boolean;
}

const splitTags = (tags?: string) => (tags ?? '').split(',').filter(Boolean);

/** Create or edit what the pricing page says about a model (or about every model a name rule matches). */
export function ModelDrawer({ editing, vendors, onClose }: Props) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const existing = editing && 'id' in editing ? editing : undefined;
  const form = useForm<Values>({
    initialValues: {
      model_name: '',
      name_rule: '0',
      description: '',
      tags: [],
      vendor_id: null,
      icon: '',
      endpoints: '',
      enabled: true,
    },
    validate: { model_name: (v) => (v.trim() ? null : t`Enter the model name`) },
  });
  const save = trpc.modelMeta.save.useMutation({
    onSuccess: () => {
      showSuccess(existing ? t`Model updated` : t`Model created`);
      void utils.modelMeta.invalidate();
      void utils.vendors.list.invalidate();
      void utils.pricing.list.invalidate();
      onClose();
    },
    onError: showError,
  });

  useEffect(() => {
    if (!editing) return;
    form.setValues({
      model_name: editing.model_name,
      name_rule: String(existing?.name_rule ?? 0),
      description: existing?.description ?? '',
      tags: splitTags(existing?.tags),
      vendor_id: existing?.vendor_id ? String(existing.vendor_id) : null,
      icon: existing?.icon ?? '',
      endpoints: existing?.endpoints ?? '',
      enabled: (existing?.status ?? 1) === 1,
    });
    form.resetDirty();
    // Reset when the drawer opens for another row only.
  }, [editing]);

  const submit = form.onSubmit((v) =>
    save.mutate({
      id: existing?.id,
      model_name: v.model_name,
      name_rule: Number(v.name_rule),
      description: v.description,
      tags: v.tags,
      vendor_id: v.vendor_id ? Number(v.vendor_id) : 0,
      icon: v.icon,
      endpoints: v.endpoints,
      status: v.enabled ? 1 : 0,
    }),
  );

  const rules = [
    { value: String(NAME_RULES.exact), label: t`Exact name` },
    { value: String(NAME_RULES.prefix), label: t`Name starts with` },
    { value: String(NAME_RULES.contains), label: t`Name contains` },
    { value: String(NAME_RULES.suffix), label: t`Name ends with` },
  ];
  const vendorName = vendors.find((v) => String(v.id) === form.values.vendor_id)?.name;
  return (
    <Drawer
      opened={editing !== null}
      onClose={onClose}
      position="right"
      size="md"
      title={existing ? <Trans>Edit model</Trans> : <Trans>Add model</Trans>}
      styles={{ title: { fontWeight: 600, fontSize: 18 } }}
    >
      <form onSubmit={submit} data-testid="model-form">
        <Stack gap="md">
          <Alert color="blue" variant="light">
            <Trans>
              What you set here is shown on the pricing page only; it does not change how calls are routed or billed.
            </Trans>
          </Alert>
          <TextInput label={t`Model name`} withAsterisk {...form.getInputProps('model_name')} />
          <Select
            label={t`Name match`}
            description={t`Which models this describes. An exact name wins, then starts with, ends with, contains.`}
            data={rules}
            allowDeselect={false}
            {...form.getInputProps('name_rule')}
          />
          <Textarea label={t`Description`} autosize minRows={2} maxRows={6} {...form.getInputProps('description')} />
          <TagsInput
            label={t`Tags`}
            placeholder={t`Type a tag and press Enter`}
            splitChars={[',', ' ']}
            clearable
            {...form.getInputProps('tags')}
          />
          <Select
            label={t`Vendor`}
            placeholder={t`No vendor`}
            data={vendors.map((v) => ({ value: String(v.id), label: v.name }))}
            searchable
            clearable
            {...form.getInputProps('vendor_id')}
          />
          <TextInput
            label={t`Icon`}
            description={t`A picture URL (https://…) or an icon name; a name shows as initials here.`}
            leftSection={
              <MarketIcon icon={form.values.icon} fallback={vendorName ?? form.values.model_name} size={20} />
            }
            {...form.getInputProps('icon')}
          />
          <JsonTextarea
            label={t`Endpoints`}
            description={t`Optional JSON: the endpoint types the pricing page lists, e.g. ["openai","anthropic"]. Empty: read from the model name.`}
            autosize
            minRows={2}
            value={form.values.endpoints}
            onChange={(v) => form.setFieldValue('endpoints', v)}
          />
          <Switch label={t`Shown on the pricing page`} {...form.getInputProps('enabled', { type: 'checkbox' })} />
          <FormFooter sticky onCancel={onClose} loading={save.isPending} />
        </Stack>
      </form>
    </Drawer>
  );
}
