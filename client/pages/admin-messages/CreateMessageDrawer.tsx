import { Trans, useLingui } from '@lingui/react/macro';
import { Drawer, Stack } from '@mantine/core';
import { useState } from 'react';
import { FormFooter } from '../../components/FormFooter.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';
import { emptyMessage, type MessageFormValues, useMessageForm } from './form.ts';
import { MessageFields } from './MessageFields.tsx';
import { type PickedUser, RecipientPicker } from './RecipientPicker.tsx';

interface Props {
  opened: boolean;
  onClose: () => void;
}

/** Compose a message: title, format, content and recipients; everything resets after a send. */
export function CreateMessageDrawer({ opened, onClose }: Props) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const form = useMessageForm();
  const [selected, setSelected] = useState<Map<number, PickedUser>>(new Map());
  const [recipientError, setRecipientError] = useState<string | null>(null);
  const create = trpc.messages.create.useMutation({
    onSuccess: () => {
      showSuccess(t`Message created successfully`);
      form.setValues(emptyMessage);
      form.resetDirty();
      setSelected(new Map());
      void utils.messages.list.invalidate();
      onClose();
    },
    onError: showError,
  });

  const noRecipients = t`Please select at least one recipient`;
  const submit = (values: MessageFormValues) => {
    if (selected.size === 0) return setRecipientError(noRecipients);
    create.mutate({ ...values, userIds: [...selected.keys()] });
  };

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="xl"
      title={<Trans>Create message</Trans>}
      styles={{ title: { fontWeight: 600, fontSize: 18 } }}
    >
      <form
        onSubmit={form.onSubmit(submit, () => selected.size === 0 && setRecipientError(noRecipients))}
        data-testid="create-message-form"
      >
        <Stack gap="md">
          <MessageFields form={form} />
          <RecipientPicker
            selected={selected}
            onChange={(next) => {
              setSelected(next);
              if (next.size) setRecipientError(null);
            }}
            error={recipientError}
          />
          <FormFooter sticky onCancel={onClose} label={<Trans>Send</Trans>} loading={create.isPending} />
        </Stack>
      </form>
    </Drawer>
  );
}
