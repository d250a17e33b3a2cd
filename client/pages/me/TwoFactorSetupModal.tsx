import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Button, Center, Code, Group, Image, Modal, PinInput, Stack, Text, Tooltip } from '@mantine/core';
import { IconCopy } from '@tabler/icons-react';
import { useState } from 'react';
import { copyText } from '../../components/clipboard.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import type { inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '../../../server/trpc/router.ts';
import { trpc } from '../../trpc.ts';
import { BackupCodesView } from './BackupCodesView.tsx';

export type TwoFactorSetup = inferRouterOutputs<AppRouter>['twoFactor']['setup'];

interface Props {
  setup: TwoFactorSetup | null;
  siteName: string;
  onClose: () => void;
  onEnabled: () => void;
}

/**
 * Turning two-factor on: scan the QR code (or type the secret) into an authenticator app, confirm with
 * the code it shows, then the backup codes, shown this once.
 */
export function TwoFactorSetupModal({ setup, siteName, onClose, onEnabled }: Props) {
  const { t } = useLingui();
  const [code, setCode] = useState('');
  const [done, setDone] = useState(false);
  const enable = trpc.twoFactor.enable.useMutation({
    onSuccess: () => {
      setDone(true);
      showSuccess(t`Two-factor authentication is on`);
      onEnabled();
    },
    onError: (e) => {
      setCode('');
      showError(e);
    },
  });
  const close = () => {
    setCode('');
    setDone(false);
    onClose();
  };
  return (
    <Modal opened={setup !== null} onClose={close} title={t`Turn on two-factor authentication`} centered size="md">
      {setup && !done && (
        <Stack gap="md">
          <Text size="sm">{t`1. Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…).`}</Text>
          <Center>
            <Image
              src={setup.qr_code_image}
              alt={t`QR code for the authenticator app`}
              w={180}
              h={180}
              bg="white"
              p={4}
              radius="sm"
            />
          </Center>
          <Text size="xs" c="dimmed">{t`Or type this key into the app:`}</Text>
          <Group gap="xs" wrap="nowrap">
            <Code data-testid="twofa-secret" style={{ flex: 1, wordBreak: 'break-all' }}>
              {setup.secret}
            </Code>
            <Tooltip label={t`Copy`}>
              <ActionIcon variant="light" aria-label={t`Copy`} onClick={() => void copyText(setup.secret)}>
                <IconCopy size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
          <Text size="sm">{t`2. Enter the 6-digit code the app shows.`}</Text>
          <Center>
            <PinInput
              length={6}
              type="number"
              oneTimeCode
              aria-label={t`Verification code`}
              value={code}
              onChange={setCode}
              onComplete={(value) => enable.mutate({ code: value })}
            />
          </Center>
          <Button
            fullWidth
            loading={enable.isPending}
            disabled={code.length !== 6}
            onClick={() => enable.mutate({ code })}
          >
            {t`Turn on`}
          </Button>
        </Stack>
      )}
      {setup && done && (
        <Stack gap="md">
          <BackupCodesView codes={setup.backup_codes} siteName={siteName} />
          <Button fullWidth onClick={close}>{t`I have saved them`}</Button>
        </Stack>
      )}
    </Modal>
  );
}
