import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * The warning about models without a price (pricing.unpriced), shared by the pricing settings and the
 * channel form: what calls to them get (refused in selling mode, else billed by the fallback price),
 * the first few names, and the page's own way to set a price.
 */
export function UnpricedModelsAlert({
  names,
  refused,
  scope,
  named,
  action,
  testId,
}: {
  names: string[];
  refused: boolean;
  /** 'enabled': models enabled channels serve (settings); 'listed': models this form lists. */
  scope: 'enabled' | 'listed';
  /** How many names are spelled out before "and N more". */
  named: number;
  action: ReactNode;
  testId: string;
}) {
  const { t } = useLingui();
  const count = names.length;
  const shown = names.slice(0, named);
  const more = count - shown.length;
  const title =
    scope === 'enabled'
      ? refused
        ? t`Enabled models without a price: ${count}`
        : t`Enabled models on the fallback price: ${count}`
      : refused
        ? t`Models without a price: ${count}`
        : t`Models on the fallback price: ${count}`;
  return (
    <Alert
      color={refused ? 'orange' : 'blue'}
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={title}
      data-testid={testId}
    >
      <Text size="sm">
        {refused ? (
          <Trans>Calls to them are refused until they get a price (or fallback pricing is on).</Trans>
        ) : (
          <Trans>Calls to them are billed by the fallback pricing until they get a price of their own.</Trans>
        )}
      </Text>
      <Text size="sm" mt={4} style={{ wordBreak: 'break-word' }}>
        {shown.join(', ')}
        {more > 0 && ' ' + t`and ${more} more`}
      </Text>
      {action}
    </Alert>
  );
}
