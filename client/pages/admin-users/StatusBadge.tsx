import { useLingui } from '@lingui/react/macro';
import { Badge } from '@mantine/core';
import { UserStatus } from '../../../shared/constants.ts';
import { isDeactivated, type UserRow } from './types.ts';

export function UserStatusBadge({ user }: { user: UserRow }) {
  const { t } = useLingui();
  if (isDeactivated(user))
    return (
      <Badge color="gray" variant="light">
        {t`Deactivated`}
      </Badge>
    );
  if (user.status === UserStatus.Enabled)
    return (
      <Badge color="teal" variant="light">
        {t`Active`}
      </Badge>
    );
  if (user.status === UserStatus.Disabled)
    return (
      <Badge color="red" variant="light">
        {t`Banned`}
      </Badge>
    );
  return (
    <Badge color="gray" variant="outline">
      {t`Unknown status`}
    </Badge>
  );
}
