import { Trans, useLingui } from '@lingui/react/macro';
import { Stack } from '@mantine/core';
import { OptionsSection } from '../form/OptionsSection.tsx';
import { fallbackOrder, fallbackProblem } from './fallback.ts';
import { PricingArea } from '../pricing/PricingArea.tsx';
import { contentFields } from '../other/other-fields.ts';
import { UpdateCheck } from '../other/UpdateCheck.tsx';
import {
  chatFields,
  fallbackFields,
  groupFields,
  otherRatioFields,
  quotaFields,
  rebateFields,
} from './operation-fields.ts';

export function OperationTab() {
  const { t } = useLingui();
  return (
    <Stack gap="lg">
      {/* The site's own content and the update check: the operation settings of the accounts spec. */}
      <OptionsSection title={<Trans>Site content</Trans>} fields={contentFields} testId="section-content" />
      <UpdateCheck />
      <OptionsSection title={<Trans>Quota settings</Trans>} fields={quotaFields} testId="section-quota" />
      <OptionsSection
        title={<Trans>Rebate settings</Trans>}
        fields={rebateFields}
        testId="section-rebate"
        check={(v, changed) =>
          changed.includes('RebatePercentage') && (Number(v.RebatePercentage) < 0 || Number(v.RebatePercentage) > 100)
            ? t`The rebate percentage must be between 0 and 100`
            : null
        }
      />
      <OptionsSection title={<Trans>Group settings</Trans>} fields={groupFields} testId="section-groups" />
      <OptionsSection title={<Trans>Other ratio settings</Trans>} fields={otherRatioFields} testId="section-ratios" />
      <OptionsSection title={<Trans>Token chat settings</Trans>} fields={chatFields} testId="section-chats" />
      <PricingArea />
      <OptionsSection
        title={<Trans>Fallback pricing</Trans>}
        description={<Trans>Either a single price, or an input ratio together with a completion ratio.</Trans>}
        fields={fallbackFields}
        testId="section-fallback"
        order={fallbackOrder}
        check={(v) =>
          fallbackProblem(v)
            ? t`Check the fallback ratio configuration: with a single price no ratios may be set; with ratios both input and completion are required`
            : null
        }
      />
    </Stack>
  );
}
