import { useLingui } from '@lingui/react/macro';
import { Group, Radio, Stack, Textarea, TextInput } from '@mantine/core';
import type { MessageForm } from './form.ts';

/** The editable part of a message, shared by the create and edit drawers. */
export function MessageFields({ form }: { form: MessageForm }) {
  const { t } = useLingui();
  return (
    <Stack gap="sm">
      <TextInput
        label={t`Title`}
        placeholder={t`Message title`}
        withAsterisk
        maxLength={200}
        key={form.key('title')}
        {...form.getInputProps('title')}
      />
      <Radio.Group label={t`Content format`} key={form.key('format')} {...form.getInputProps('format')}>
        <Group gap="lg" mt={6}>
          <Radio value="markdown" label="Markdown" />
          <Radio value="html" label="HTML" />
        </Group>
      </Radio.Group>
      <Textarea
        label={t`Content`}
        placeholder={form.getValues().format === 'html' ? t`Message content in HTML` : t`Message content in Markdown`}
        withAsterisk
        autosize
        minRows={6}
        maxRows={16}
        key={form.key('content')}
        {...form.getInputProps('content')}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
      />
    </Stack>
  );
}
