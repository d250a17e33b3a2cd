import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Menu } from '@mantine/core';
import { IconBan, IconCheck, IconDots, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';

interface Props {
  /** The row's own items, first. */
  children?: ReactNode;
  /** Offers Disable when true, Enable when false. */
  enabled: boolean;
  onToggle: () => void;
  /** Enable or Disable greyed out (a used redemption code cannot be enabled again). */
  toggleDisabled?: boolean;
  /** Asks first (a confirmation modal): the menu only calls it. Rows that are never deleted (plans) leave it out. */
  onDelete?: () => void;
  loading?: boolean;
  /** The whole menu greyed out (a user of the same or a higher role). */
  disabled?: boolean;
}

/**
 * The "more" menu that ends a row of the token, channel, user and redemption-code tables, so they read
 * alike: the row's own items, switching it on or off, then delete, apart and in red.
 */
export function RowMenu({ children, enabled, onToggle, toggleDisabled, onDelete, loading, disabled }: Props) {
  const { t } = useLingui();
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={t`More actions`} loading={loading} disabled={disabled}>
          <IconDots size={16} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {children}
        <Menu.Item
          leftSection={enabled ? <IconBan size={14} /> : <IconCheck size={14} />}
          disabled={toggleDisabled}
          onClick={onToggle}
        >
          {enabled ? t`Disable` : t`Enable`}
        </Menu.Item>
        {onDelete && (
          <>
            <Menu.Divider />
            <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={onDelete}>
              {t`Delete`}
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
