import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Radio, SegmentedControl, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconEye } from '@tabler/icons-react';
import { useState } from 'react';
import { ChannelType } from '../../../../shared/channel-types.ts';
import { showError } from '../../../lib/errors.ts';
import { useStoredUser, userIsRoot } from '../../../lib/user.ts';
import { trpc } from '../../../trpc.ts';
import { type ChannelFormValues, hasMultiKey, splitKeys } from './form.ts';
import { typeHints } from './type-hints.ts';

interface Props {
  form: UseFormReturnType<ChannelFormValues>;
  /** The channel being edited (its key is never sent to the console unless root reveals it). */
  editingId?: number;
}

/** Single-key / multi-key key input (spec §4 "Channel key input"). */
export function KeyInput({ form, editingId }: Props) {
  const { t } = useLingui();
  const user = useStoredUser();
  const utils = trpc.useUtils();
  const [revealing, setRevealing] = useState(false);
  const { type, multiKey, key } = form.values;
  const multiAllowed = hasMultiKey(type);
  const editing = editingId !== undefined;
  const keyCount = splitKeys(key).length;

  const onPaste = (e: React.ClipboardEvent) => {
    const text = e.clipboardData.getData('text');
    if (!multiAllowed || multiKey || !/[\n,]/.test(text.trim())) return;
    e.preventDefault();
    form.setValues({ multiKey: true, key: splitKeys(text).join('\n') });
  };
  const reveal = async () => {
    if (editingId === undefined) return;
    setRevealing(true);
    try {
      const { key: stored } = await utils.channels.revealKey.fetch({ id: editingId });
      form.setValues({ key: stored, multiKey: multiAllowed && stored.includes('\n') });
    } catch (err) {
      showError(err);
    } finally {
      setRevealing(false);
    }
  };
  const { keyFormat: format, keyHelp } = typeHints(type);
  const placeholder = editing
    ? t`Leave empty to keep the current key`
    : type === ChannelType.VertexAI
      ? t`Service account JSON`
      : format
        ? t`Format: ${format}`
        : t`The upstream API key`;

  return (
    <Stack gap={6}>
      <Group justify="space-between" align="flex-end">
        <Text size="sm" fw={500}>
          <Trans>Key</Trans>
          {!editing && <span style={{ color: 'var(--mantine-color-error)' }}> *</span>}
        </Text>
        <Group gap="xs">
          {editing && userIsRoot(user) && (
            <Button
              size="compact-xs"
              variant="subtle"
              leftSection={<IconEye size={12} />}
              loading={revealing}
              onClick={reveal}
            >
              {t`Show current key`}
            </Button>
          )}
          {multiAllowed && (
            <SegmentedControl
              size="xs"
              value={multiKey ? 'multi' : 'single'}
              onChange={(v) => form.setFieldValue('multiKey', v === 'multi')}
              data={[
                { value: 'single', label: t`Single key` },
                { value: 'multi', label: t`Several keys` },
              ]}
            />
          )}
        </Group>
      </Group>
      {multiKey && multiAllowed ? (
        <Textarea
          aria-label={t`Keys`}
          placeholder={editing ? placeholder : format ? t`One key per line, each as ${format}` : t`One key per line`}
          autosize
          minRows={3}
          maxRows={10}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
          description={keyCount > 0 ? plural(keyCount, { one: '# key', other: '# keys' }) : undefined}
          {...form.getInputProps('key')}
        />
      ) : type === ChannelType.VertexAI ? (
        <Textarea
          aria-label={t`Key`}
          placeholder={placeholder}
          autosize
          minRows={3}
          maxRows={10}
          {...form.getInputProps('key')}
        />
      ) : (
        <TextInput
          aria-label={t`Key`}
          placeholder={placeholder}
          onPaste={onPaste}
          autoComplete="off"
          {...form.getInputProps('key')}
        />
      )}
      {keyHelp && (
        <Text size="xs" c="dimmed" data-testid="key-help">
          {t(keyHelp)}
        </Text>
      )}
      {multiKey && multiAllowed && !editing && (
        <Radio.Group
          value={form.values.multiKeyMode}
          onChange={(v) => form.setFieldValue('multiKeyMode', v as ChannelFormValues['multiKeyMode'])}
        >
          <Group gap="md" mt={4}>
            <Radio value="batch" label={t`One channel per key`} />
            <Radio value="multi_to_single" label={t`All keys in one channel`} />
          </Group>
        </Radio.Group>
      )}
      {multiKey && multiAllowed && (editing || form.values.multiKeyMode === 'multi_to_single') && (
        <Select
          label={t`Key selection`}
          description={t`How requests pick among the enabled keys of this channel`}
          data={[
            { value: 'random', label: t`At random` },
            { value: 'polling', label: t`In turn` },
          ]}
          allowDeselect={false}
          mt={4}
          data-testid="key-selection"
          {...form.getInputProps('keySelection')}
        />
      )}
    </Stack>
  );
}
