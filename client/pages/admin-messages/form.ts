import { useLingui } from '@lingui/react/macro';
import { useForm } from '@mantine/form';
import type { MessageFormat } from '../../../shared/schemas/messages.ts';

export interface MessageFormValues {
  title: string;
  content: string;
  format: MessageFormat;
}

export const emptyMessage: MessageFormValues = { title: '', content: '', format: 'markdown' };

/** Title, format and content with the spec's rules (required after trimming), in the UI language. */
export function useMessageForm(initial: MessageFormValues = emptyMessage) {
  const { t } = useLingui();
  return useForm<MessageFormValues>({
    mode: 'controlled',
    initialValues: initial,
    validate: {
      title: (v) => (v.trim() ? null : t`Please enter the message title`),
      content: (v) => (v.trim() ? null : t`Please enter the message content`),
    },
    // What the server receives: trimmed text (it trims again, but the form shows what is sent).
    transformValues: (v) => ({ ...v, title: v.title.trim(), content: v.content.trim() }),
  });
}

export type MessageForm = ReturnType<typeof useMessageForm>;
