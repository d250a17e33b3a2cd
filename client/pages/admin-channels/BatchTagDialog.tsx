import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { FormFooter } from '../../components/FormFooter.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';

interface Props {
  opened: boolean;
  ids: number[];
  onClose: () => void;
  onDone: () => void;
}

/** Sets one tag on every selected channel. */
export function BatchTagDialog({ opened, ids, onClose, onDone }: Props) {
  const { t } = useLingui();
  const [tag, setTag] = useState('');
  const utils = trpc.useUtils();
  const batchTag = trpc.channels.batchTag.useMutation({
    onSuccess: (n) => {
      showSuccess(plural(n, { one: 'Tag set on # channel', other: 'Tag set on # channels' }));
      void utils.channels.list.invalidate();
      onDone();
      onClose();
    },
    onError: showError,
  });
  const submit = () => {
    if (ids.length === 0) return notifications.show({ color: 'yellow', message: t`Select channels first` });
    if (!tag.trim()) return notifications.show({ color: 'yellow', message: t`Please enter a tag` });
    batchTag.mutate({ ids, tag: tag.trim() });
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t`Set tag`} onExitTransitionEnd={() => setTag('')}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          <Trans>The tag is set on the {ids.length} selected channels.</Trans>
        </Text>
        <TextInput
          label={t`Tag`}
          value={tag}
          onChange={(e) => setTag(e.currentTarget.value)}
          data-autofocus
          onKeyDown={(e) => {
            if (e.key === 'Enter') submit();
          }}
        />
        <FormFooter onCancel={onClose} label={<Trans>Confirm</Trans>} onConfirm={submit} loading={batchTag.isPending} />
      </Stack>
    </Modal>
  );
}
