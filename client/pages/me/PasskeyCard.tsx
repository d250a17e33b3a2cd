import { useLingui } from '@lingui/react/macro';
import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconFingerprint, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { showError, showFailure, showSuccess } from '../../lib/errors.ts';
import { formatTimestamp } from '../../lib/format.ts';
import { createPasskey, isPasskeyCancel, passkeysSupported } from '../../lib/passkey.ts';
import { useStatus } from '../../lib/status-context.tsx';
import { trpc } from '../../trpc.ts';

function PasskeyTimes({ createdAt, lastUsedAt }: { createdAt: number; lastUsedAt: number | null }) {
  const { t } = useLingui();
  const added = formatTimestamp(createdAt);
  const used = lastUsedAt ? formatTimestamp(lastUsedAt) : t`never`;
  return (
    <Text size="sm" data-testid="passkey-times">
      {t`Added ${added}, last used ${used}`}
    </Text>
  );
}

/**
 * Me › Security: the user's passkey (issue 32). Register one (it then signs in without a password), see
 * when it was added and last used, remove it. Shown when the site allows passkeys, or to remove one kept
 * from before the admin turned them off.
 */
export function PasskeyCard() {
  const { t } = useLingui();
  const status = useStatus();
  const utils = trpc.useUtils();
  const passkey = trpc.passkeys.status.useQuery();
  const begin = trpc.passkeys.registerBegin.useMutation();
  const finish = trpc.passkeys.registerFinish.useMutation();
  const remove = trpc.passkeys.remove.useMutation({
    onSuccess: () => {
      showSuccess(t`Passkey removed`);
      void utils.passkeys.status.invalidate();
    },
    onError: showError,
  });
  const [busy, setBusy] = useState(false);
  const data = passkey.data;
  if (!data || (!status.passkey_login && !data.registered)) return null;

  const register = async () => {
    setBusy(true);
    try {
      await finish.mutateAsync(await createPasskey(await begin.mutateAsync()));
      showSuccess(t`Passkey registered`);
      await utils.passkeys.status.invalidate();
    } catch (err) {
      if (isPasskeyCancel(err)) notifications.show({ color: 'gray', message: t`Passkey registration was cancelled` });
      else showFailure(t`Passkey registration failed`, err);
    } finally {
      setBusy(false);
    }
  };

  const confirmRemove = () =>
    modals.openConfirmModal({
      title: t`Remove passkey`,
      children: <Text size="sm">{t`You will no longer be able to sign in with this passkey.`}</Text>,
      labels: { confirm: t`Remove`, cancel: t`Cancel` },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(),
    });

  const canRegister = status.passkey_login && passkeysSupported();
  return (
    <Paper withBorder radius="lg" p="lg" data-testid="passkey-card">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <IconFingerprint size={20} />
            <Text fw={600}>{t`Passkey`}</Text>
          </Group>
          {data.registered ? (
            <Badge color="teal" variant="light" data-testid="passkey-state">{t`Registered`}</Badge>
          ) : (
            <Badge color="gray" variant="light" data-testid="passkey-state">{t`Not registered`}</Badge>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {t`Sign in with your fingerprint, face or device PIN instead of a password.`}
        </Text>
        {data.registered && <PasskeyTimes createdAt={data.createdAt} lastUsedAt={data.lastUsedAt} />}
        {status.passkey_login && !passkeysSupported() && (
          <Text size="xs" c="orange">{t`This browser cannot use passkeys here (they need HTTPS).`}</Text>
        )}
        <Group gap="xs">
          {canRegister && (
            <Button
              size="xs"
              variant={data.registered ? 'default' : 'filled'}
              leftSection={<IconFingerprint size={14} />}
              loading={busy}
              onClick={() => void register()}
            >
              {data.registered ? t`Replace passkey` : t`Register a passkey`}
            </Button>
          )}
          {data.registered && (
            <Button
              size="xs"
              color="red"
              variant="light"
              leftSection={<IconTrash size={14} />}
              loading={remove.isPending}
              onClick={confirmRemove}
            >
              {t`Remove passkey`}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}
