import { useLingui } from '@lingui/react/macro';
import { Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { FormFooter } from '../../components/FormFooter.tsx';

interface Props {
  opened: boolean;
  title: string;
  /** Whether a backup code is accepted too (turning off); renewing codes wants the app's code. */
  allowBackup: boolean;
  confirmLabel: string;
  danger?: boolean;
  loading: boolean;
  onClose: () => void;
  onSubmit: (code: string) => void;
}

/** Asks for the app's current code (or a backup code) before a change to two-factor. */
export function TwoFactorCodeModal({
  opened,
  title,
  allowBackup,
  confirmLabel,
  danger,
  loading,
  onClose,
  onSubmit,
}: Props) {
  const { t } = useLingui();
  const [code, setCode] = useState('');
  const close = () => {
    setCode('');
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (code.trim()) onSubmit(code.trim());
        }}
      >
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {allowBackup
              ? t`Enter the 6-digit code from your authenticator app, or a backup code.`
              : t`Enter the 6-digit code from your authenticator app.`}
          </Text>
          <TextInput
            label={allowBackup ? t`Verification or backup code` : t`Verification code`}
            autoComplete="one-time-code"
            data-autofocus
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
          />
          <FormFooter onCancel={close} label={confirmLabel} loading={loading} disabled={!code.trim()} danger={danger} />
        </Stack>
      </form>
    </Modal>
  );
}
