import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { Badge, Tooltip, UnstyledButton } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { enabledKeyIndices } from '../../../../shared/channel-info.ts';
import type { ChannelRow } from '../types.ts';
import { useOpenKeys } from './open-keys.tsx';

/** "3/4 keys" on a multi-key channel's row (orange when some are disabled); opens its key list. */
export function KeyCount({ channel }: { channel: ChannelRow }) {
  const { t } = useLingui();
  const openKeys = useOpenKeys();
  const info = channel.channel_info;
  if (!info?.is_multi_key) return null;
  const on = enabledKeyIndices(info).length;
  const all = info.multi_key_size;
  return (
    <Tooltip label={t`Show the keys`} withinPortal>
      <UnstyledButton onClick={() => openKeys(channel)} aria-label={t`Show the keys`} w="fit-content">
        <Badge
          tt="none"
          size="sm"
          variant="light"
          color={on === all ? 'gray' : on === 0 ? 'red' : 'orange'}
          leftSection={<IconKey size={11} />}
          style={{ cursor: 'pointer', whiteSpace: 'nowrap' }}
          data-testid="key-count"
        >
          {plural(all, { one: `${on}/# key`, other: `${on}/# keys` })}
        </Badge>
      </UnstyledButton>
    </Tooltip>
  );
}
