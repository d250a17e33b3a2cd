import { Trans, useLingui } from '@lingui/react/macro';
import { Drawer, Group, MultiSelect, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { isJsonObjectText } from '../../../shared/schemas/channels.ts';
import { FormFooter } from '../../components/FormFooter.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';
import { unionGroups } from './cells.tsx';
import { JsonField } from './JsonField.tsx';
import { type ChannelRow, spread, splitCsv } from './types.ts';

interface Props {
  tag: string | null;
  channels: ChannelRow[];
  onClose: () => void;
}

interface Draft {
  newTag: string;
  mapping: string;
  groups: string[];
  models: string[];
  priority: number | string;
  weight: number | string;
}

/** Edits every channel of a tag at once; only changed fields are sent. */
export function TagEditDrawer({ tag, channels, onClose }: Props) {
  const { t } = useLingui();
  const mobile = useMediaQuery('(max-width: 600px)');
  const groupList = trpc.groups.list.useQuery();
  const known = trpc.channels.knownModels.useQuery(undefined, { staleTime: 60_000 });
  const utils = trpc.useUtils();
  const initial: Draft = {
    newTag: tag ?? '',
    mapping: '',
    groups: unionGroups(channels),
    models: [...new Set(channels.flatMap((c) => splitCsv(c.models)))],
    priority: '',
    weight: '',
  };
  const [d, setD] = useState<Draft>(initial);
  // What the tag's channels have now (issue 45): one value, or their range when they differ.
  const now = (field: 'priority' | 'weight') => {
    if (channels.length === 0) return undefined;
    const { value, mixed } = spread(channels, field);
    return value === null ? t`Mixed: ${mixed}` : t`Currently ${value}`;
  };
  const listsDiffer = (list: (c: ChannelRow) => string[]) =>
    new Set(channels.map((c) => [...list(c)].sort().join(','))).size > 1;
  const differ = t`The channels differ: a change sets this whole list on each of them`;
  useEffect(() => {
    if (tag) setD(initial);
    // Only when another tag is opened.
  }, [tag]);
  const edit = trpc.channels.editTag.useMutation({
    onSuccess: () => {
      showSuccess(t`Tag updated`);
      void utils.channels.list.invalidate();
      onClose();
    },
    onError: showError,
  });
  const warn = (message: string) => notifications.show({ color: 'yellow', message });
  const same = (a: string[], b: string[]) => a.join(',') === b.join(',');

  const submit = () => {
    if (!tag) return;
    if (!isJsonObjectText(d.mapping)) return warn(t`Model mapping must be valid JSON`);
    const priority = d.priority === '' ? null : Number(d.priority);
    const weight = d.weight === '' ? null : Number(d.weight);
    if (priority !== null && !Number.isInteger(priority)) return warn(t`Priority must be an integer`);
    if (weight !== null && (!Number.isInteger(weight) || weight < 0))
      return warn(t`Weight must be a non-negative integer`);
    const input = {
      tag,
      new_tag: d.newTag.trim() && d.newTag.trim() !== tag ? d.newTag.trim() : null,
      model_mapping: d.mapping.trim() || null,
      groups: same(d.groups, initial.groups) ? null : d.groups,
      models: same(d.models, initial.models) ? null : d.models,
      priority,
      weight,
    };
    const changed = Object.entries(input).some(([k, v]) => k !== 'tag' && v !== null);
    if (!changed) return warn(t`No changes`);
    edit.mutate(input);
  };

  return (
    <Drawer
      opened={tag !== null}
      onClose={onClose}
      position="right"
      size={mobile ? '100%' : 'md'}
      title={t`Edit tag ${tag ?? ''}`}
      styles={{ title: { fontWeight: 600, fontSize: 18 } }}
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          <Trans>Changes apply to all {channels.length} channels with this tag. Empty fields stay as they are.</Trans>
        </Text>
        <TextInput
          label={t`Tag name`}
          value={d.newTag}
          onChange={(e) => setD({ ...d, newTag: e.currentTarget.value })}
        />
        <MultiSelect
          label={t`Models`}
          data={[...new Set([...initial.models, ...d.models, ...(known.data ?? [])])]}
          value={d.models}
          onChange={(models) => setD({ ...d, models })}
          description={listsDiffer((c) => splitCsv(c.models)) ? differ : undefined}
          searchable
          clearable
        />
        <MultiSelect
          label={t`Groups`}
          data={[...new Set([...(groupList.data ?? []), ...d.groups])]}
          value={d.groups}
          onChange={(groups) => setD({ ...d, groups })}
          description={listsDiffer((c) => splitCsv(c.group)) ? differ : undefined}
          searchable
        />
        <JsonField
          label={t`Model mapping`}
          placeholder={'{"gpt-4o": "gpt-4o-2024-08-06"}'}
          value={d.mapping}
          onChange={(mapping) => setD({ ...d, mapping })}
        />
        <Group grow align="flex-start">
          <NumberInput
            label={t`Priority`}
            placeholder={t`Unchanged`}
            description={now('priority')}
            min={-999}
            allowDecimal={false}
            value={d.priority}
            onChange={(priority) => setD({ ...d, priority })}
          />
          <NumberInput
            label={t`Weight`}
            placeholder={t`Unchanged`}
            description={now('weight')}
            min={0}
            allowDecimal={false}
            allowNegative={false}
            value={d.weight}
            onChange={(weight) => setD({ ...d, weight })}
          />
        </Group>
        <FormFooter sticky onCancel={onClose} onConfirm={submit} loading={edit.isPending} />
      </Stack>
    </Drawer>
  );
}
