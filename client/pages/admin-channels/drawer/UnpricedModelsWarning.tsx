import { Trans } from '@lingui/react/macro';
import { Anchor } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData } from '@tanstack/react-query';
import { UnpricedModelsAlert } from '../../../components/UnpricedModelsAlert.tsx';
import { trpc } from '../../../trpc.ts';

/**
 * Under the channel's model list: the models that have no price (no ModelPrice, no ModelRatio).
 * In selling mode the relay refuses calls to them (403), so the operator is told before saving
 * and pointed at the pricing settings' list of models without a price. Nothing in self-use mode.
 */
export function UnpricedModelsWarning({ models }: { models: string[] }) {
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
  return (
    <UnpricedModelsAlert
      names={names}
      refused={data.outcome === 'refused'}
      scope="listed"
      named={8}
      testId="unpriced-models-warning"
      action={
        <Anchor
          href="/admin/settings?tab=operation&pricing=unset"
          target="_blank"
          size="sm"
          mt={4}
          display="inline-block"
        >
          <Trans>Set their prices (opens the pricing settings)</Trans>
        </Anchor>
      }
    />
  );
}
