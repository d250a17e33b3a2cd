import { useLingui } from '@lingui/react/macro';
import { Badge, Tooltip } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { TokenStatus } from '../../../shared/constants.ts';
import type { TokenRow } from './types.ts';

/** 1 enabled (a variant when model limits are on), 2 disabled, 3 expired, 4 exhausted. */
export function TokenStatusBadge({ token }: { token: Pick<TokenRow, 'status' | 'model_limits_enabled'> }) {
  const { t } = useLingui();
  switch (token.status) {
    case TokenStatus.Enabled:
      return token.model_limits_enabled ? (
        <Tooltip label={t`Enabled, limited to selected models`} withinPortal>
          <Badge tt="none" color="teal" variant="outline" leftSection={<IconFilter size={11} />}>
            {t`Enabled`}
          </Badge>
        </Tooltip>
      ) : (
        <Badge tt="none" color="teal" variant="light">
          {t`Enabled`}
        </Badge>
      );
    case TokenStatus.Disabled:
      return <Badge tt="none" color="red" variant="light">{t`Disabled`}</Badge>;
    case TokenStatus.Expired:
      return <Badge tt="none" color="yellow" variant="light">{t`Expired`}</Badge>;
    case TokenStatus.Exhausted:
      return <Badge tt="none" color="gray" variant="light">{t`Exhausted`}</Badge>;
    default:
      return <Badge tt="none" color="gray" variant="outline">{t`Unknown status`}</Badge>;
  }
}
