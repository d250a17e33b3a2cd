import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { trpc } from '../../../trpc.ts';

/** How many model names the warning spells out before "and N more". */
const NAMED = 6;

/**
 * The saved state's models that enabled channels serve without a price (pricing.unpriced): in selling
 * mode the relay refuses them (403), so the warning says so and opens the list where a price is set.
 */
export function UnpricedAlert({ onShow }: { onShow: () => void }) {
  const { t } = useLingui();
  const unpriced = trpc.pricing.unpriced.useQuery();
  const data = unpriced.data;
  if (!data || data.models.length === 0 || data.outcome === 'free') return null;
  const names = data.models.slice(0, NAMED).map((m) => m.model);
  const more = data.models.length - names.length;
  const count = data.models.length;
  const refused = data.outcome === 'refused';
  return (
    <Alert
      color={refused ? 'orange' : 'blue'}
      icon={<IconAlertTriangle size={18} />}
      title={refused ? t`Enabled models without a price: ${count}` : t`Enabled models on the fallback price: ${count}`}
      data-testid="unpriced-alert"
    >
      <Text size="sm">
        {refused ? (
          <Trans>Calls to them are refused until they get a price (or fallback pricing is on).</Trans>
        ) : (
          <Trans>Calls to them are billed by the fallback pricing until they get a price of their own.</Trans>
        )}
      </Text>
      <Text size="sm" mt={4} style={{ wordBreak: 'break-word' }}>
        {names.join(', ')}
        {more > 0 && ' ' + t`and ${more} more`}
      </Text>
      <Anchor component="button" type="button" size="sm" mt={4} onClick={onShow}>
        <Trans>Set their prices</Trans>
      </Anchor>
    </Alert>
  );
}
