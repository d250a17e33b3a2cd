import { useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, MultiSelect, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconBulb, IconCloudDownload, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { channelTypeInfo } from '../../../../shared/channel-types.ts';
import { showError } from '../../../lib/errors.ts';
import { trpc } from '../../../trpc.ts';
import { type ChannelFormValues, splitKeys } from './form.ts';
import { ModelPickerModal } from './ModelPickerModal.tsx';
import { typeHints } from './type-hints.ts';

const uniq = (xs: string[]) => [...new Set(xs.map((x) => x.trim()).filter(Boolean))];

/** The channel's models: type defaults, known models, the upstream's list, or typed in. */
export function ModelsField({ form, editingId }: { form: UseFormReturnType<ChannelFormValues>; editingId?: number }) {
  const { t } = useLingui();
  const [custom, setCustom] = useState('');
  const known = trpc.channels.knownModels.useQuery(undefined, { staleTime: 60_000 });
  const { type, models } = form.values;
  const related = [...(channelTypeInfo(type)?.defaultModels ?? [])];
  // Kling, Jimeng, Vidu and Doubao video publish no model list: no fetch to offer (issue 40).
  const { noModelList } = typeHints(type);
  const setModels = (next: string[]) => form.setFieldValue('models', uniq(next));
  // A new channel starts with its type's usual names: a suggestion, said as one (issue 28), until changed.
  const suggested =
    editingId === undefined &&
    related.length > 0 &&
    models.length === related.length &&
    models.every((m) => related.includes(m));
  // The upstream's list goes to the picker; the admin chooses which of them the channel serves.
  const [upstream, setUpstream] = useState<string[] | null>(null);
  const fetched = (list: string[]) => {
    if (list.length === 0) notifications.show({ color: 'yellow', message: t`The upstream listed no models` });
    else setUpstream(list);
  };
  const fetchNew = trpc.channels.fetchModels.useMutation({ onSuccess: fetched, onError: showError });
  const fetchStored = trpc.channels.fetchModelsOf.useMutation({ onSuccess: fetched, onError: showError });

  const fetchUpstream = () => {
    const key = splitKeys(form.values.key)[0] ?? '';
    // `other` too: some list URLs need it (Cloudflare's account id).
    if (key)
      fetchNew.mutate({
        type,
        key,
        base_url: form.values.base_url.trim() || null,
        other: form.values.other.trim() || null,
      });
    else if (editingId !== undefined) fetchStored.mutate({ id: editingId });
    else notifications.show({ color: 'yellow', message: t`Please fill in the key` });
  };
  const addCustom = () => {
    const added = uniq(custom.split(','));
    if (added.length === 0) return;
    setModels([...models, ...added]);
    setCustom('');
  };

  return (
    <Stack gap={6}>
      <ModelPickerModal
        opened={upstream !== null}
        upstream={upstream ?? []}
        current={models}
        onClose={() => setUpstream(null)}
        onApply={setModels}
      />
      <MultiSelect
        label={t`Models`}
        withAsterisk
        placeholder={models.length ? undefined : t`Choose the models this channel serves`}
        data={uniq([...models, ...related, ...(known.data ?? [])])}
        value={models}
        onChange={setModels}
        searchable
        clearable
        hidePickedOptions
        maxDropdownHeight={280}
        error={form.errors.models}
        styles={{ pillsList: { maxHeight: 160, overflowY: 'auto' } }}
        data-testid="channel-models"
      />
      {suggested && (
        <Alert
          variant="light"
          color="yellow"
          p="xs"
          icon={<IconBulb size={16} />}
          title={t`Suggested models`}
          data-testid="suggested-models"
        >
          {noModelList
            ? t`These are the usual names for this type. Keep the ones your account may use and add newer ones by name.`
            : t`These are the usual names for this type. Replace them with what your upstream serves: "Fetch from upstream" lists them.`}
        </Alert>
      )}
      <Group gap={6}>
        <Button size="compact-xs" variant="light" onClick={() => setModels([...models, ...related])}>
          {t`Fill related models`}
        </Button>
        {!noModelList && (
          <Button
            size="compact-xs"
            variant="light"
            leftSection={<IconCloudDownload size={12} />}
            loading={fetchNew.isPending || fetchStored.isPending}
            onClick={fetchUpstream}
          >
            {t`Fetch from upstream`}
          </Button>
        )}
        <Button size="compact-xs" variant="subtle" color="red" onClick={() => setModels([])}>
          {t({ message: 'Clear', context: 'all models' })}
        </Button>
      </Group>
      {noModelList && (
        <Text size="xs" c="dimmed" data-testid="no-model-list">
          {t`This upstream's API does not list its models: type the names it serves below.`}
        </Text>
      )}
      <TextInput
        placeholder={t`Custom model names, comma separated`}
        aria-label={t`Custom model`}
        value={custom}
        onChange={(e) => setCustom(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            addCustom();
          }
        }}
        rightSectionWidth={70}
        rightSection={
          <Button size="compact-xs" variant="subtle" leftSection={<IconPlus size={12} />} onClick={addCustom}>
            {t`Add`}
          </Button>
        }
      />
    </Stack>
  );
}
