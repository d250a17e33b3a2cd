import { useLingui } from '@lingui/react/macro';
import { Button, Group, Menu, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import type { ManageUserInput } from '../../../shared/schemas/users.ts';
import { isAdmin, Role, UserStatus } from '../../../shared/constants.ts';
import { showError, showSuccess } from '../../lib/errors.ts';
import { useStoredUser } from '../../lib/user.ts';
import { RowMenu } from '../../components/RowMenu.tsx';
import { trpc } from '../../trpc.ts';
import { ResetTwoFactorItem } from './ResetTwoFactorItem.tsx';
import { isDeactivated, type UserRow } from './types.ts';

/** The row menu's actions; quota changes go through the edit form (add_quota is new-api 2026's REST call). */
type Action = Exclude<ManageUserInput['action'], 'add_quota'>;

/** Edit, then promote / demote / disable / enable / delete, each confirmed. */
export function RowActions({ user, onEdit }: { user: UserRow; onEdit: () => void }) {
  const { t } = useLingui();
  const me = useStoredUser();
  const utils = trpc.useUtils();
  const manage = trpc.users.manage.useMutation({
    onSuccess: () => {
      showSuccess(t`Operation successful`);
      void utils.users.list.invalidate();
    },
    onError: showError,
  });
  if (isDeactivated(user)) return null;

  const labels: Record<Action, string> = {
    promote: t`Promote to admin`,
    demote: t`Demote to user`,
    disable: t`Disable`,
    enable: t`Enable`,
    delete: t`Delete`,
  };
  const confirm = (action: Action) =>
    modals.openConfirmModal({
      title: labels[action],
      centered: true,
      children: <Text size="sm">{t`${labels[action]}: are you sure about user ${user.username}?`}</Text>,
      labels: { confirm: t`Confirm`, cancel: t`Cancel` },
      confirmProps: { color: action === 'delete' || action === 'disable' ? 'red' : undefined },
      onConfirm: () => manage.mutate({ id: user.id, action }),
    });

  // The server's rules (manage.service.ts), shown before a click and said on hover (issue 45): nobody
  // acts on the same or a higher role, root excepted; root edits its own profile and balance, but is
  // never disabled, demoted or deleted, by itself or anyone.
  const self = !!me && user.id === me.id;
  const outranked = !me || (user.role >= me.role && me.role < Role.Root);
  const editBlocked = outranked;
  const menuBlocked = outranked || self;
  const why = outranked
    ? t`You cannot manage a user of your own role or higher`
    : t`Your own account cannot be disabled, demoted or deleted`;
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Tooltip label={why} disabled={!editBlocked} withinPortal>
        <span>
          <Button size="compact-xs" variant="light" onClick={onEdit} disabled={editBlocked}>
            {t`Edit`}
          </Button>
        </span>
      </Tooltip>
      <Tooltip label={why} disabled={!menuBlocked} withinPortal>
        <span>
          <RowMenu
            enabled={user.status === UserStatus.Enabled}
            onToggle={() => confirm(user.status === UserStatus.Enabled ? 'disable' : 'enable')}
            onDelete={() => confirm('delete')}
            disabled={menuBlocked}
          >
            {!isAdmin(user.role) && me && me.role >= Role.Root && (
              <Menu.Item leftSection={<IconArrowUp size={14} />} onClick={() => confirm('promote')}>
                {labels.promote}
              </Menu.Item>
            )}
            {isAdmin(user.role) && user.role < Role.Root && (
              <Menu.Item leftSection={<IconArrowDown size={14} />} onClick={() => confirm('demote')}>
                {labels.demote}
              </Menu.Item>
            )}
            <ResetTwoFactorItem user={user} />
          </RowMenu>
        </span>
      </Tooltip>
    </Group>
  );
}
