import { useLingui } from '@lingui/react/macro';
import { Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { StatusDot } from '../../components/StatusDot.tsx';
import { IconShieldLock } from '@tabler/icons-react';
import { useState } from 'react';
import { showError, showSuccess } from '../../lib/errors.ts';
import { useStatus } from '../../lib/status-context.tsx';
import { trpc } from '../../trpc.ts';
import { BackupCodesView } from './BackupCodesView.tsx';
import { TwoFactorCodeModal } from './TwoFactorCodeModal.tsx';
import { type TwoFactorSetup, TwoFactorSetupModal } from './TwoFactorSetupModal.tsx';

/**
 * Me › Security: two-factor sign-in with an authenticator app. Off: turn it on (QR code, code, backup
 * codes). On: how many backup codes are left, new backup codes, turn it off.
 */
export function TwoFactorCard() {
  const { t } = useLingui();
  const siteName = useStatus().system_name || 'switchyard';
  const utils = trpc.useUtils();
  const status = trpc.twoFactor.status.useQuery();
  const refresh = () => void utils.twoFactor.status.invalidate();
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [asking, setAsking] = useState<'disable' | 'codes' | null>(null);
  const [newCodes, setNewCodes] = useState<string[] | null>(null);
  const start = trpc.twoFactor.setup.useMutation({ onSuccess: setSetup, onError: showError });
  const disable = trpc.twoFactor.disable.useMutation({
    onSuccess: () => {
      setAsking(null);
      showSuccess(t`Two-factor authentication is off`);
      refresh();
    },
    onError: showError,
  });
  const regenerate = trpc.twoFactor.regenerateBackupCodes.useMutation({
    onSuccess: (r) => {
      setAsking(null);
      setNewCodes(r.backup_codes);
      refresh();
    },
    onError: showError,
  });
  const on = status.data?.enabled === true;
  const left = status.data?.backup_codes_remaining ?? 0;
  return (
    <Paper withBorder radius="lg" p="lg" data-testid="two-factor-card">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <IconShieldLock size={18} />
            <Text fw={600}>{t`Two-factor authentication`}</Text>
          </Group>
          {status.data && (
            <StatusDot color={on ? 'teal' : 'gray'} data-testid="two-factor-state">
              {on ? t`On` : t`Off`}
            </StatusDot>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {on
            ? t`Signing in with your password also asks for a code from your authenticator app. Backup codes left: ${left}`
            : t`After the password, also ask for a code from an authenticator app on your phone.`}
        </Text>
        {status.data?.locked && (
          <Text size="xs" c="red">{t`Too many wrong codes: codes are refused for a few minutes.`}</Text>
        )}
        <Group gap="xs">
          {on ? (
            <>
              <Button variant="light" size="xs" onClick={() => setAsking('codes')}>
                {t`New backup codes`}
              </Button>
              <Button color="red" variant="light" size="xs" onClick={() => setAsking('disable')}>
                {t`Turn off`}
              </Button>
            </>
          ) : (
            <Button size="xs" loading={start.isPending} disabled={!status.data} onClick={() => start.mutate()}>
              {t`Turn on`}
            </Button>
          )}
        </Group>
      </Stack>
      <TwoFactorSetupModal setup={setup} siteName={siteName} onClose={() => setSetup(null)} onEnabled={refresh} />
      <TwoFactorCodeModal
        opened={asking === 'disable'}
        title={t`Turn off two-factor authentication`}
        allowBackup
        danger
        confirmLabel={t`Turn off`}
        loading={disable.isPending}
        onClose={() => setAsking(null)}
        onSubmit={(code) => disable.mutate({ code })}
      />
      <TwoFactorCodeModal
        opened={asking === 'codes'}
        title={t`New backup codes`}
        allowBackup={false}
        confirmLabel={t`Generate`}
        loading={regenerate.isPending}
        onClose={() => setAsking(null)}
        onSubmit={(code) => regenerate.mutate({ code })}
      />
      <Modal opened={newCodes !== null} onClose={() => setNewCodes(null)} title={t`New backup codes`} centered>
        {newCodes && (
          <Stack gap="md">
            <BackupCodesView codes={newCodes} siteName={siteName} />
            <Button fullWidth onClick={() => setNewCodes(null)}>{t`I have saved them`}</Button>
          </Stack>
        )}
      </Modal>
    </Paper>
  );
}
