import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Code, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { FormFooter } from '../../components/FormFooter.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import { setStoredUser } from '../../lib/user.ts';
import { trpc } from '../../trpc.ts';

interface Props {
  opened: boolean;
  onClose: () => void;
  username: string;
}

/** Deleting one's account requires typing one's own username. */
export function DeleteAccountModal({ opened, onClose, username }: Props) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [typed, setTyped] = useState('');
  const remove = trpc.users.deleteSelf.useMutation({
    onSuccess: () => {
      setStoredUser(null);
      showSuccess(t`Account deleted`);
      navigate('/', { replace: true });
    },
    onError: showError,
  });
  const submit = () => {
    if (typed !== username) {
      showError(t`Please enter your account name to confirm deletion`);
      return;
    }
    remove.mutate({ confirmUsername: typed });
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t`Delete account`} centered>
      <Stack gap="sm">
        <Alert color="red" variant="light">
          {t`This deactivates your account and its tokens. It cannot be undone.`}
        </Alert>
        <Text size="sm">
          <Trans>
            Type <Code>{username}</Code> to confirm.
          </Trans>
        </Text>
        <TextInput value={typed} onChange={(e) => setTyped(e.currentTarget.value)} placeholder={username} />
        <FormFooter
          mt="sm"
          onCancel={onClose}
          label={t`Delete account`}
          onConfirm={submit}
          loading={remove.isPending}
          danger
        />
      </Stack>
    </Modal>
  );
}
