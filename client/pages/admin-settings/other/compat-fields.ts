import { msg } from '@lingui/core/macro';
import type { FieldDef } from '../form/fields.ts';

/* What Switchyard's /api answers to consoles and scripts written for new-api (docs/compatibility.md). */
export const compatFields: FieldDef[] = [
  {
    key: 'ApiCompatContract',
    kind: 'select',
    label: msg`new-api API version`,
    description: msg`The shape of /api answers for new-api's own console and scripts. This console is not affected.`,
    span: 6,
    choices: [
      { value: '2026', label: msg`Current (new-api 2026: paged lists, masked keys)` },
      { value: '2025-04', label: msg`April 2025 (lists as plain arrays, full keys)` },
    ],
  },
  {
    key: 'ExposeRatioEnabled',
    kind: 'switch',
    label: msg`Publish price ratios`,
    description: msg`Anyone may read the model ratios at /api/ratio_config, so another gateway can copy your prices.`,
    span: 6,
  },
];
