import { useLingui } from '@lingui/react/macro';
import { Avatar, Button, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconLogout, IconUser } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router-dom';
import { showSuccess } from '../lib/errors.ts';
import { useStatus } from '../lib/status-context.tsx';
import { useStoredUser } from '../lib/user.ts';
import { logout } from './logout.ts';

/** Signed in: avatar menu with the username and logout. Signed out: login and register (none before setup). */
export function UserMenu({ mobile }: { mobile: boolean }) {
  const { t } = useLingui();
  const status = useStatus();
  const user = useStoredUser();
  const navigate = useNavigate();

  // Before setup there is nobody to log in as, nor registration to offer (issue 31).
  if (!user && !status.setup) return null;
  if (!user) {
    return (
      <Group gap="xs" wrap="nowrap">
        <Button component={Link} to="/login" variant="default" size="xs">
          {t`Log in`}
        </Button>
        {!status.self_use_mode_enabled && !mobile && (
          <Button component={Link} to="/register" size="xs">
            {t`Register`}
          </Button>
        )}
      </Group>
    );
  }

  const onLogout = async () => {
    await logout();
    showSuccess(t`Logout successful`);
    navigate('/login');
  };

  return (
    <Menu position="bottom-end" shadow="md" width={200}>
      <Menu.Target>
        <UnstyledButton data-testid="user-menu" aria-label={user.username}>
          <Group gap={6} wrap="nowrap">
            {/* The username, as the logs show it: the display name set up for root ("Root User") made "RU" here. */}
            <Avatar size={30} radius="xl" color="indigo" name={user.username} />
            {!mobile && (
              <Text size="sm" fw={500} maw={120} truncate>
                {user.username}
              </Text>
            )}
            <IconChevronDown size={14} />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          {user.display_name && user.display_name !== user.username
            ? `${user.display_name} (${user.username})`
            : user.username}
        </Menu.Label>
        <Menu.Item component={Link} to="/app/me" leftSection={<IconUser size={14} />}>
          {t`Personal settings`}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={14} />} onClick={() => void onLogout()}>
          {t`Log out`}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
