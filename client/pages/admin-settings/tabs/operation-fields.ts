import { msg } from '@lingui/core/macro';
import type { FieldDef } from '../form/fields.ts';

/* Operation tab, as the spec lists it: quota, rebate, groups, other ratios, chats, general. */

export const generalFields: FieldDef[] = [
  { key: 'TopUpLink', kind: 'text', label: msg`Top-up link`, placeholder: 'https://' },
  { key: 'general_setting.docs_link', kind: 'text', label: msg`Docs link`, placeholder: 'https://' },
  {
    key: 'QuotaPerUnit',
    kind: 'number',
    label: msg`Quota per unit ($1)`,
    description: msg`Do not change this unless you know what you are doing`,
    min: 1,
  },
  // How every page, form and mail shows money (new-api's option names; the older DisplayInCurrencyEnabled
  // switch follows this choice on the server).
  {
    key: 'general_setting.quota_display_type',
    kind: 'select',
    label: msg`Show amounts in`,
    description: msg`Used by every page, form and mail; quota itself is stored in quota units either way`,
    choices: [
      { value: 'USD', label: msg`US dollars ($)` },
      { value: 'CNY', label: msg`Chinese yuan (¥)` },
      { value: 'CUSTOM', label: msg`Custom currency` },
      { value: 'TOKENS', label: msg`Quota units` },
    ],
  },
  {
    key: 'USDExchangeRate',
    kind: 'number',
    label: msg`Yuan per US dollar`,
    description: msg`Amounts in yuan are dollars times this rate; it does not change top-up prices`,
    min: 0.01,
    decimals: 4,
    disabledWhen: (v) => v['general_setting.quota_display_type'] !== 'CNY',
  },
  {
    key: 'general_setting.custom_currency_symbol',
    kind: 'text',
    label: msg`Custom currency symbol`,
    disabledWhen: (v) => v['general_setting.quota_display_type'] !== 'CUSTOM',
  },
  {
    key: 'general_setting.custom_currency_exchange_rate',
    kind: 'number',
    label: msg`Custom currency per US dollar`,
    min: 0.0001,
    decimals: 4,
    disabledWhen: (v) => v['general_setting.quota_display_type'] !== 'CUSTOM',
  },
  { key: 'DisplayTokenStatEnabled', kind: 'switch', label: msg`Show token usage statistics` },
  { key: 'DefaultCollapseSidebar', kind: 'switch', label: msg`Collapse the sidebar by default` },
  // The setup wizard's usage mode, which an operator may want to change later.
  {
    key: 'SelfUseModeEnabled',
    kind: 'switch',
    label: msg`Self-use mode`,
    description: msg`Models without a price are free. Off (selling mode), every model needs a price before it can be called.`,
  },
  {
    key: 'DemoSiteEnabled',
    kind: 'switch',
    label: msg`Demo site`,
    description: msg`Marks the site as a demo.`,
  },
];

export const quotaFields: FieldDef[] = [
  { key: 'QuotaForNewUser', kind: 'quota', label: msg`Initial quota for new users`, min: 0 },
  {
    key: 'PreConsumedQuota',
    kind: 'quota',
    label: msg`Quota reserved per request`,
    description: msg`Returned or topped up when the request ends`,
    min: 0,
  },
  { key: 'QuotaForInviter', kind: 'quota', label: msg`Reward for the inviter`, min: 0 },
  { key: 'QuotaForInvitee', kind: 'quota', label: msg`Reward for the invitee`, min: 0 },
];

export const rebateFields: FieldDef[] = [
  { key: 'AffEnabled', kind: 'switch', label: msg`Invitations enabled` },
  { key: 'RebateEnabled', kind: 'switch', label: msg`Rebate enabled` },
  {
    key: 'RebatePercentage',
    kind: 'number',
    label: msg`Rebate percentage (%)`,
    min: 0,
    max: 100,
    step: 1,
    disabledWhen: (v) => v.RebateEnabled !== 'true',
  },
];

export const groupFields: FieldDef[] = [
  {
    key: 'GroupRatio',
    kind: 'json',
    label: msg`Group ratios`,
    description: msg`A JSON object: group name → price multiplier`,
    span: 6,
  },
  {
    key: 'UserUsableGroups',
    kind: 'json',
    label: msg`Groups users may choose`,
    description: msg`A JSON object: group name → description`,
    span: 6,
  },
];

export const otherRatioFields: FieldDef[] = [
  { key: 'CacheCreationRatio', kind: 'json', label: msg`Cache creation ratios`, span: 6 },
  { key: 'AudioRatio', kind: 'json', label: msg`Audio input ratios`, span: 6 },
  { key: 'AudioCompletionRatio', kind: 'json', label: msg`Audio completion ratios`, span: 6 },
  {
    key: 'redirect_billing_enabled',
    kind: 'switch',
    label: msg`Bill redirected models at the requested model's price`,
    span: 6,
  },
];

export const chatFields: FieldDef[] = [
  {
    key: 'Chats',
    kind: 'json',
    label: msg`Chat clients`,
    // Braces are Lingui placeholders, so the literal ones travel as values.
    description: msg`A JSON list of ${'{"name": "link"}'} objects; ${'{key}'} and ${'{address}'} are filled in for the user`,
    rows: 6,
  },
];

export const ratioJsonFields: FieldDef[] = [
  {
    key: 'ModelPrice',
    kind: 'json',
    label: msg`Fixed price per call (USD)`,
    description: msg`A fixed price takes precedence over ratios`,
    rows: 8,
  },
  { key: 'ModelRatio', kind: 'json', label: msg`Model ratios`, rows: 8 },
  { key: 'CompletionRatio', kind: 'json', label: msg`Completion ratios`, rows: 8 },
  { key: 'CacheRatio', kind: 'json', label: msg`Cache ratios`, rows: 6 },
  {
    key: 'VideoPriceUnit',
    kind: 'json',
    label: msg`Video price units`,
    description: msg`A video model's fixed price is per second of video; "job" makes it per video`,
    rows: 4,
  },
];

export const fallbackFields: FieldDef[] = [
  {
    key: 'fallback_pricing_enabled',
    kind: 'switch',
    label: msg`Fallback pricing for models without a price`,
    span: 12,
  },
  { key: 'fallback_single_price', kind: 'number', label: msg`Single price per call (USD)`, min: 0, step: 0.001 },
  { key: 'fallback_input_ratio', kind: 'number', label: msg`Input ratio`, min: 0, step: 0.1 },
  { key: 'fallback_completion_ratio', kind: 'number', label: msg`Completion ratio`, min: 0, step: 0.1 },
];
