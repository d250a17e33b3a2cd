import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData } from '@tanstack/react-query';
import { IconAlertTriangle } from '@tabler/icons-react';
import { trpc } from '../../../trpc.ts';

/** How many model names the warning spells out before "and N more". */
const NAMED = 8;

/**
 * Under the channel's model list: the models that have no price (no ModelPrice, no ModelRatio).
 * In selling mode the relay refuses calls to them (403), so the operator is told before saving
 * and pointed at the pricing settings' list of models without a price. Nothing in self-use mode.
 */
export function UnpricedModelsWarning({ models }: { models: string[] }) {
  const { t } = useLingui();
  const [debounced] = useDebouncedValue(models, 300);
  const unpriced = trpc.pricing.unpriced.useQuery(
    { models: debounced },
    { enabled: debounced.length > 0, placeholderData: keepPreviousData },
  );
  const data = unpriced.data;
  if (models.length === 0 || !data || data.models.length === 0 || data.outcome === 'free') return null;
  const listed = new Set(models);
  const names = data.models.map((m) => m.model).filter((m) => listed.has(m));
  if (names.length === 0) return null;
  const shown = names.slice(0, NAMED);
  const more = names.length - shown.length;
  const count = names.length;
  const refused = data.outcome === 'refused';
  return (
    <Alert
      color={refused ? 'orange' : 'blue'}
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={refused ? t`Models without a price: ${count}` : t`Models on the fallback price: ${count}`}
      data-testid="unpriced-models-warning"
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
      <Anchor
        href="/admin/settings?tab=operation&pricing=unset"
        target="_blank"
        size="sm"
        mt={4}
        display="inline-block"
      >
        <Trans>Set their prices (opens the pricing settings)</Trans>
      </Anchor>
    </Alert>
  );
}
