import { useLingui } from '@lingui/react/macro';
import { Badge } from '@mantine/core';
import { Role } from '../../shared/constants.ts';

/** Role as a coloured badge: user, admin, super admin. */
export function RoleBadge({ role }: { role: number }) {
  const { t } = useLingui();
  if (role >= Role.Root)
    return (
      <Badge color="orange" variant="light">
        {t`Super admin`}
      </Badge>
    );
  if (role >= Role.Admin)
    return (
      <Badge color="indigo" variant="light">
        {t`Admin`}
      </Badge>
    );
  if (role === Role.Common)
    return (
      <Badge color="gray" variant="light">
        {t`User`}
      </Badge>
    );
  return (
    <Badge color="gray" variant="outline">
      {t`Unknown role`}
    </Badge>
  );
}
