import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Button, Code, Divider, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconCopy, IconKey, IconLock, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { copyText } from '../../components/clipboard.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';
import { ChangePasswordModal } from './ChangePasswordModal.tsx';
import { DeleteAccountModal } from './DeleteAccountModal.tsx';
import type { SelfUser } from './types.ts';

function Row({ title, description, action }: { title: string; description: string; action: React.ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" align="center" gap="md">
      <div style={{ minWidth: 0 }}>
        <Text fw={500} size="sm">
          {title}
        </Text>
        <Text size="xs" c="dimmed">
          {description}
        </Text>
      </div>
      <div style={{ flexShrink: 0 }}>{action}</div>
    </Group>
  );
}

/** System access token, password change and account deletion. */
export function SecurityCard({ user }: { user: SelfUser }) {
  const { t } = useLingui();
  const [token, setToken] = useState(user.access_token ?? '');
  const [modal, setModal] = useState<'password' | 'delete' | null>(null);
  const generate = trpc.users.generateAccessToken.useMutation({
    onSuccess: (value) => {
      setToken(value);
      void copyText(value, t`Access token reset and copied to the clipboard`);
    },
    onError: showError,
  });
  return (
    <Paper withBorder radius="lg" p="lg">
      <Stack gap="md">
        <Text fw={600}>{t`Account security`}</Text>
        <Row
          title={t`System access token`}
          description={t`For calling the management API; generating a new one revokes the old one.`}
          action={
            <Button
              variant="light"
              size="xs"
              leftSection={<IconKey size={14} />}
              loading={generate.isPending}
              onClick={() => generate.mutate()}
            >
              {token ? t`Regenerate` : t`Generate`}
            </Button>
          }
        />
        {token && (
          <Group gap="xs" wrap="nowrap">
            <Code data-testid="access-token" style={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis' }}>
              {token}
            </Code>
            <Tooltip label={t`Copy`}>
              <ActionIcon variant="light" aria-label={t`Copy`} onClick={() => void copyText(token)}>
                <IconCopy size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        )}
        <Divider />
        <Row
          title={t`Password`}
          description={t`Change the password you sign in with.`}
          action={
            <Button
              variant="default"
              size="xs"
              leftSection={<IconLock size={14} />}
              onClick={() => setModal('password')}
            >
              {t`Change password`}
            </Button>
          }
        />
        <Divider />
        <Row
          title={t`Delete account`}
          description={t`Deactivates your account; this cannot be undone.`}
          action={
            <Button
              color="red"
              variant="light"
              size="xs"
              leftSection={<IconTrash size={14} />}
              onClick={() => setModal('delete')}
            >
              {t`Delete account`}
            </Button>
          }
        />
      </Stack>
      <ChangePasswordModal
        opened={modal === 'password'}
        onClose={() => setModal(null)}
        onDone={() => showSuccess(t`Password changed`)}
      />
      <DeleteAccountModal opened={modal === 'delete'} onClose={() => setModal(null)} username={user.username} />
    </Paper>
  );
}
