import { useLingui } from '@lingui/react/macro';
import { UserStatus } from '../../../shared/constants.ts';
import { isDeactivated, type UserRow } from './types.ts';
import { StatusDot } from '../../components/StatusDot.tsx';

export function UserStatusBadge({ user }: { user: UserRow }) {
  const { t } = useLingui();
  if (isDeactivated(user)) return <StatusDot color="gray">{t`Deactivated`}</StatusDot>;
  if (user.status === UserStatus.Enabled) return <StatusDot color="teal">{t`Active`}</StatusDot>;
  if (user.status === UserStatus.Disabled) return <StatusDot color="red">{t`Banned`}</StatusDot>;
  return <StatusDot color="gray">{t`Unknown status`}</StatusDot>;
}
