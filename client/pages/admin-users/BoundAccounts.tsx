import { useLingui } from '@lingui/react/macro';
import { SimpleGrid, TextInput } from '@mantine/core';
import type { UserRow } from './types.ts';

/** Third-party ids are shown read-only; only their owner binds or unbinds them. */
export function BoundAccounts({ user }: { user: UserRow }) {
  const { t } = useLingui();
  const fields: [string, string][] = [
    [t`E-mail`, user.email],
    ['GitHub', user.github_id],
    ['OIDC', user.oidc_id],
    [t`WeChat`, user.wechat_id],
    ['Telegram', user.telegram_id],
    ['LinuxDO', user.linux_do_id],
  ];
  return (
    <SimpleGrid cols={2} spacing="xs">
      {fields.map(([label, value]) => (
        <TextInput key={label} label={label} value={value} placeholder={t`Not bound`} readOnly size="xs" />
      ))}
    </SimpleGrid>
  );
}
