import { Trans } from '@lingui/react/macro';
import { Anchor } from '@mantine/core';
import { UnpricedModelsAlert } from '../../../components/UnpricedModelsAlert.tsx';
import { trpc } from '../../../trpc.ts';

/**
 * The saved state's models that enabled channels serve without a price (pricing.unpriced): in selling
 * mode the relay refuses them (403), so the warning says so and opens the list where a price is set.
 */
export function UnpricedAlert({ onShow }: { onShow: () => void }) {
  const unpriced = trpc.pricing.unpriced.useQuery();
  const data = unpriced.data;
  if (!data || data.models.length === 0 || data.outcome === 'free') return null;
  return (
    <UnpricedModelsAlert
      names={data.models.map((m) => m.model)}
      refused={data.outcome === 'refused'}
      scope="enabled"
      named={6}
      testId="unpriced-alert"
      action={
        <Anchor component="button" type="button" size="sm" mt={4} onClick={onShow}>
          <Trans>Set their prices</Trans>
        </Anchor>
      }
    />
  );
}
