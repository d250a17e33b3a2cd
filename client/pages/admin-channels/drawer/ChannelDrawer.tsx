import { Trans, useLingui } from '@lingui/react/macro';
import { Accordion, Drawer, Group, LoadingOverlay, MultiSelect, NumberInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect } from 'react';
import { channelTypeInfo, TASK_CHANNEL_TYPES } from '../../../../shared/channel-types.ts';
import { FormFooter } from '../../../components/FormFooter.tsx';
import { trpc } from '../../../trpc.ts';
import type { ChannelRow } from '../types.ts';
import { AdvancedFields } from './AdvancedFields.tsx';
import { AutoBanSwitch } from './AutoBanSwitch.tsx';
import { CacheSwitch } from './CacheSwitch.tsx';
import {
  baseUrlProblem,
  type ChannelFormValues,
  emptyChannel,
  hasBaseUrl,
  hasMultiKey,
  valuesFromChannel,
} from './form.ts';
import { KeyInput } from './KeyInput.tsx';
import { ModelsField } from './ModelsField.tsx';
import { UnpricedModelsWarning } from './UnpricedModelsWarning.tsx';
import { OtherField, SuccessorNotice } from './TypeFields.tsx';
import { TypeSelect } from './TypeSelect.tsx';
import { useChannelSubmit } from './useChannelSubmit.ts';

interface Props {
  opened: boolean;
  editing?: ChannelRow;
  onClose: () => void;
}

/** Create/edit side drawer for a channel (spec §2, §5, §9). */
export function ChannelDrawer({ opened, editing, onClose }: Props) {
  const { t } = useLingui();
  const mobile = useMediaQuery('(max-width: 600px)');
  const form = useForm<ChannelFormValues>({
    mode: 'controlled',
    initialValues: emptyChannel(),
    // Checked when the field loses focus and on save (the server refuses it too).
    validate: {
      base_url: (_, v) => (baseUrlProblem(v) ? t`The base URL must look like http(s)://host[:port][/path]` : null),
    },
    validateInputOnBlur: ['base_url'],
  });
  const groups = trpc.groups.list.useQuery();
  const full = trpc.channels.get.useQuery({ id: editing?.id ?? 0 }, { enabled: opened && !!editing });
  const { submit, pending } = useChannelSubmit(editing?.id, onClose);

  useEffect(() => {
    if (!opened) return;
    const source = editing ? (full.data ?? editing) : undefined;
    form.setValues(source ? valuesFromChannel(source) : emptyChannel());
    form.clearErrors();
    form.resetDirty();
    // Reset when the drawer opens for another channel or its full record arrives.
  }, [opened, editing?.id, full.data]);

  const type = form.values.type;
  const info = channelTypeInfo(type);
  const changeType = (v: string | null) => {
    const next = Number(v ?? 1);
    const defaults = [...(channelTypeInfo(next)?.defaultModels ?? [])];
    // A new channel follows the type's models; task types (Midjourney, Suno) always get their task models.
    const models = !editing || TASK_CHANNEL_TYPES.includes(next) ? defaults : form.values.models;
    form.setValues({ type: next, models, multiKey: hasMultiKey(next) && form.values.multiKey });
  };

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={mobile ? '100%' : 'lg'}
      title={editing ? t`Edit channel #${editing.id}` : t`Add channel`}
      styles={{ title: { fontWeight: 600, fontSize: 18 } }}
    >
      <LoadingOverlay visible={!!editing && full.isLoading} />
      <form onSubmit={form.onSubmit(submit)} noValidate data-testid="channel-form">
        <Stack gap="md">
          <TypeSelect value={type} onChange={changeType} />
          <SuccessorNotice type={type} onSwitch={(next) => changeType(String(next))} />
          <TextInput
            label={t`Name`}
            withAsterisk={!editing}
            placeholder={t`e.g. OpenAI main`}
            {...form.getInputProps('name')}
          />
          {hasBaseUrl(type) && (
            <TextInput
              label={t`Base URL`}
              withAsterisk={!info?.baseUrl}
              description={info?.baseUrl ? t`Optional; empty uses the type's default` : t`Required for this type`}
              placeholder={info?.baseUrl || 'https://example.com'}
              {...form.getInputProps('base_url')}
            />
          )}
          <KeyInput form={form} editingId={editing?.id} />
          <OtherField form={form} />
          <ModelsField form={form} editingId={editing?.id} />
          <UnpricedModelsWarning models={form.values.models} />
          <MultiSelect
            label={t`Groups`}
            description={t`Users in these groups can be routed to this channel`}
            data={[...new Set([...(groups.data ?? []), ...form.values.groups])]}
            searchable
            {...form.getInputProps('groups')}
          />
          <TextInput
            label={t`Tag`}
            placeholder={t`Optional; channels with a tag can be managed together`}
            {...form.getInputProps('tag')}
          />
          <Group grow align="flex-start">
            <NumberInput label={t`Priority`} min={-999} allowDecimal={false} {...form.getInputProps('priority')} />
            <NumberInput
              label={t`Weight`}
              min={0}
              allowDecimal={false}
              allowNegative={false}
              {...form.getInputProps('weight')}
            />
          </Group>
          <AutoBanSwitch form={form} />
          <CacheSwitch form={form} />
          <Accordion variant="contained" chevronPosition="left">
            <Accordion.Item value="advanced">
              <Accordion.Control>
                <Trans>Advanced settings</Trans>
              </Accordion.Control>
              <Accordion.Panel>
                <AdvancedFields form={form} />
              </Accordion.Panel>
            </Accordion.Item>
          </Accordion>
          <FormFooter
            sticky
            onCancel={onClose}
            label={editing ? <Trans>Save</Trans> : <Trans>Create</Trans>}
            loading={pending}
          />
        </Stack>
      </form>
    </Drawer>
  );
}
