import { useLingui } from '@lingui/react/macro';
import { Tooltip } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { TokenStatus } from '../../../shared/constants.ts';
import type { TokenRow } from './types.ts';
import { StatusDot } from '../../components/StatusDot.tsx';

/** 1 enabled (a variant when model limits are on), 2 disabled, 3 expired, 4 exhausted. */
export function TokenStatusBadge({ token }: { token: Pick<TokenRow, 'status' | 'model_limits_enabled'> }) {
  const { t } = useLingui();
  switch (token.status) {
    case TokenStatus.Enabled:
      return token.model_limits_enabled ? (
        <Tooltip label={t`Enabled, limited to selected models`} withinPortal>
          <StatusDot color="teal" rightSection={<IconFilter size={12} />}>
            {t`Enabled`}
          </StatusDot>
        </Tooltip>
      ) : (
        <StatusDot color="teal">{t`Enabled`}</StatusDot>
      );
    case TokenStatus.Disabled:
      return <StatusDot color="red">{t`Disabled`}</StatusDot>;
    case TokenStatus.Expired:
      return <StatusDot color="yellow">{t`Expired`}</StatusDot>;
    case TokenStatus.Exhausted:
      return <StatusDot color="gray">{t`Exhausted`}</StatusDot>;
    default:
      return <StatusDot color="gray">{t`Unknown status`}</StatusDot>;
  }
}
