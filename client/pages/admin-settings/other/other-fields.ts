import { msg } from '@lingui/core/macro';
import type { FieldDef } from '../form/fields.ts';

export const contentFields: FieldDef[] = [
  { key: 'SystemName', kind: 'text', label: msg`System name`, span: 6 },
  { key: 'Logo', kind: 'text', label: msg`Logo image URL`, placeholder: 'https://', span: 6 },
  { key: 'Notice', kind: 'textarea', label: msg`Notice`, description: msg`Markdown; shown to users on the console` },
  {
    key: 'HomePageContent',
    kind: 'textarea',
    label: msg`Home page content`,
    description: msg`Markdown or HTML, or a URL to show in a frame`,
    rows: 5,
  },
  {
    key: 'About',
    kind: 'textarea',
    label: msg`About`,
    description: msg`Markdown or HTML, or a URL to show in a frame`,
  },
  { key: 'Footer', kind: 'textarea', label: msg`Footer`, description: msg`HTML allowed`, rows: 2 },
  { key: 'HeadHTML', kind: 'textarea', label: msg`Custom head HTML`, description: msg`Added to every page's head` },
  { key: 'GlobalCSS', kind: 'textarea', label: msg`Global CSS` },
  { key: 'GlobalJS', kind: 'textarea', label: msg`Global JavaScript` },
];

export const drawingFields: FieldDef[] = [
  { key: 'DrawingEnabled', kind: 'switch', label: msg`Drawing enabled`, span: 6 },
  { key: 'TaskEnabled', kind: 'switch', label: msg`Asynchronous tasks enabled`, span: 6 },
  { key: 'MjNotifyEnabled', kind: 'switch', label: msg`Allow callbacks (exposes the server address)`, span: 6 },
  { key: 'MjAccountFilterEnabled', kind: 'switch', label: msg`Allow the accountFilter parameter`, span: 6 },
  { key: 'MjForwardUrlEnabled', kind: 'switch', label: msg`Serve images through this server`, span: 6 },
  { key: 'MjModeClearEnabled', kind: 'switch', label: msg`Strip --fast, --relax and --turbo from prompts`, span: 6 },
  {
    key: 'MjActionCheckSuccessEnabled',
    kind: 'switch',
    label: msg`Check that the image finished before actions`,
    span: 6,
  },
  // Beside the task switches, on a row of its own after them: a number field in their two-column grid would break its rows.
  {
    key: 'TaskTimeoutMinutes',
    kind: 'number',
    label: msg`Task timeout (minutes)`,
    description: msg`A video, Midjourney or Suno task still unfinished after this long is marked failed and refunded in full`,
    min: 1,
    decimals: 0,
    span: 12,
  },
];

export const sensitiveFields: FieldDef[] = [
  { key: 'CheckSensitiveEnabled', kind: 'switch', label: msg`Check for sensitive words` },
  { key: 'CheckSensitiveOnPromptEnabled', kind: 'switch', label: msg`Check prompts` },
  { key: 'StopOnSensitiveEnabled', kind: 'switch', label: msg`Stop the answer on a sensitive word` },
  { key: 'SensitiveWords', kind: 'textarea', label: msg`Sensitive words`, description: msg`One per line`, rows: 5 },
];

export const dashboardFields: FieldDef[] = [
  { key: 'DataExportEnabled', kind: 'switch', label: msg`Data dashboard enabled`, span: 12 },
  {
    key: 'DataExportInterval',
    kind: 'number',
    label: msg`Update interval (minutes)`,
    min: 1,
    decimals: 0,
    span: 6,
  },
  {
    key: 'DataExportDefaultTime',
    kind: 'select',
    label: msg`Default time granularity`,
    span: 6,
    choices: [
      { value: 'hour', label: msg`Hour` },
      { value: 'day', label: msg`Day` },
      { value: 'week', label: msg`Week` },
    ],
  },
];

export const monitoringFields: FieldDef[] = [
  {
    key: 'ChannelDisableThreshold',
    kind: 'number',
    label: msg`Slowest acceptable channel test (seconds)`,
    min: 0,
    span: 6,
  },
  {
    key: 'QuotaRemindThreshold',
    kind: 'quota',
    label: msg`Default quota warning threshold`,
    description: msg`Users get a warning below this quota unless they chose their own`,
    min: 0,
    span: 6,
  },
  {
    key: 'AutomaticDisableChannelEnabled',
    kind: 'switch',
    label: msg`Disable failing channels automatically`,
    span: 6,
  },
  {
    key: 'AutomaticEnableChannelEnabled',
    kind: 'switch',
    label: msg`Enable recovered channels automatically`,
    span: 6,
  },
  {
    key: 'ChannelTestIntervalMinutes',
    kind: 'number',
    label: msg`Test all channels every (minutes)`,
    description: msg`0 = off; the two switches above decide what a result changes`,
    min: 0,
    decimals: 0,
    span: 4,
  },
  {
    key: 'ChannelBalanceRefreshIntervalMinutes',
    kind: 'number',
    label: msg`Refresh channel balances every (minutes)`,
    description: msg`0 = off; enabled channels only`,
    min: 0,
    decimals: 0,
    span: 4,
  },
  {
    key: 'LogRetentionDays',
    kind: 'number',
    label: msg`Keep usage logs for (days)`,
    description: msg`0 = forever; older logs are deleted every hour`,
    min: 0,
    decimals: 0,
    span: 4,
  },
  {
    key: 'AutomaticDisableKeywords',
    kind: 'textarea',
    label: msg`Keywords that disable a channel`,
    description: msg`One per line; an upstream error containing one disables the channel`,
    rows: 5,
  },
];

export const checkInFields: FieldDef[] = [
  { key: 'CheckInEnabled', kind: 'switch', label: msg`Daily check-in enabled`, span: 12 },
  { key: 'CheckInQuota', kind: 'quota', label: msg`Smallest reward`, min: 0, step: 100, span: 6 },
  { key: 'CheckInMaxQuota', kind: 'quota', label: msg`Largest reward`, min: 0, step: 100, span: 6 },
];
