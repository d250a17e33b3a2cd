import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import type { FieldDef } from '../form/fields.ts';
import { OptionsSection } from '../form/OptionsSection.tsx';

const fields: FieldDef[] = [
  { key: 'ModelRequestRateLimitEnabled', kind: 'switch', label: msg`Limit model requests per user`, span: 12 },
  {
    key: 'ModelRequestRateLimitDurationMinutes',
    kind: 'number',
    label: msg`Period (minutes)`,
    min: 0,
    decimals: 0,
  },
  {
    key: 'ModelRequestRateLimitCount',
    kind: 'number',
    label: msg`Requests per period`,
    description: msg`Counts failed requests too; 0 means unlimited`,
    min: 0,
    decimals: 0,
  },
  {
    key: 'ModelRequestRateLimitSuccessCount',
    kind: 'number',
    label: msg`Successful requests per period`,
    min: 1,
    decimals: 0,
  },
];

export function RateLimitTab() {
  return (
    <OptionsSection
      title={<Trans>Model request rate limit</Trans>}
      description={<Trans>Applies to every user; tokens can add their own limits.</Trans>}
      fields={fields}
      testId="section-ratelimit"
    />
  );
}
