import { Trans, useLingui } from '@lingui/react/macro';
import { Checkbox, Text } from '@mantine/core';
import type { ChangeEvent } from 'react';
import { SHIPPED_PRICE_COUNT } from '../../../shared/preset-prices.ts';

interface Props {
  checked?: boolean;
  onChange?: (e: ChangeEvent<HTMLInputElement>) => void;
}

/**
 * The wizard's word on the prices a fresh install ships (issue 39): they are presets from the
 * providers' list prices, kept or cleared here in one step (SetupPage clears them right after setup).
 */
export function PresetPricesChoice({ checked, onChange }: Props) {
  const { t } = useLingui();
  const n = SHIPPED_PRICE_COUNT;
  return (
    <Checkbox
      checked={checked}
      onChange={onChange}
      data-testid="setup-keep-presets"
      label={t`Keep the preset prices of ${n} models`}
      description={
        <Text span size="xs" c="dimmed">
          <Trans>
            Preset prices are the public list prices of OpenAI, Anthropic, Google and other providers, not prices you
            chose; users are charged them as they are. Untick to start with no prices: a model can then be called only
            once you set its price. You can review or clear them later in System settings › Model pricing.
          </Trans>
        </Text>
      }
    />
  );
}
