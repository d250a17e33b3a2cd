import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { channelTypeInfo } from '../../../../shared/channel-types.ts';
import type { ChannelFormValues } from './form.ts';
import { typeHints } from './type-hints.ts';

type Form = UseFormReturnType<ChannelFormValues>;

/** A retired API's type (PaLM, legacy Baidu and Zhipu): it still relays, but a newer type is the one to create. */
export function SuccessorNotice({ type, onSwitch }: { type: number; onSwitch: (type: number) => void }) {
  const successor = typeHints(type).successor;
  const next = successor === undefined ? undefined : channelTypeInfo(successor);
  if (!next) return null;
  const name = channelTypeInfo(type)?.name ?? '';
  return (
    <Alert variant="light" color="yellow" icon={<IconInfoCircle size={18} />} data-testid="successor-notice">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" style={{ flex: '1 1 240px' }}>
          <Trans>
            The vendor has retired the {name} API. Channels of this type still relay, but new channels should use{' '}
            {next.name}.
          </Trans>
        </Text>
        <Button size="compact-sm" variant="light" color="yellow" onClick={() => onSwitch(next.id)}>
          <Trans>Use {next.name}</Trans>
        </Button>
      </Group>
    </Alert>
  );
}

/** The type's own field (`other`): Spark's version, Vertex AI's region, Cloudflare's account, a library id... */
export function OtherField({ form }: { form: Form }) {
  const { t } = useLingui();
  const field = typeHints(form.values.type).other;
  if (!field) return null;
  return (
    <TextInput
      label={t(field.label)}
      description={t(field.description)}
      placeholder={field.placeholder}
      withAsterisk={field.required}
      data-testid="channel-other"
      {...form.getInputProps('other')}
    />
  );
}
