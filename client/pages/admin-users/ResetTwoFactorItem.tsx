import { useLingui } from '@lingui/react/macro';
import { Menu, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconShieldOff } from '@tabler/icons-react';
import { showError, showSuccess } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';
import type { UserRow } from './types.ts';

/**
 * The user row menu's "Reset two-factor": for someone who lost both the phone and the backup codes.
 * Their two-factor is turned off and their sessions end; the server refuses a user of the same or a
 * higher role, and one without two-factor, with a message saying so.
 */
export function ResetTwoFactorItem({ user }: { user: UserRow }) {
  const { t } = useLingui();
  const reset = trpc.twoFactor.adminReset.useMutation({
    onSuccess: () => showSuccess(t`Two-factor authentication of ${user.username} was turned off`),
    onError: showError,
  });
  const confirm = () =>
    modals.openConfirmModal({
      title: t`Reset two-factor`,
      centered: true,
      children: (
        <Text size="sm">
          {t`Turn off two-factor authentication for ${user.username}? They will sign in with the password alone and can turn it on again.`}
        </Text>
      ),
      labels: { confirm: t`Reset two-factor`, cancel: t`Cancel` },
      confirmProps: { color: 'red' },
      onConfirm: () => reset.mutate({ id: user.id }),
    });
  return (
    <Menu.Item leftSection={<IconShieldOff size={14} />} onClick={confirm}>
      {t`Reset two-factor`}
    </Menu.Item>
  );
}
