import type { Migration } from 'kysely/migration';
import * as initial from './2026-11-22T0000-initial.ts';
import * as sessions from './2026-11-22T0100-sessions.ts';
import * as jobLeases from './2026-11-23T0000-job-leases.ts';
import * as logHourly from './2026-11-23T0100-log-hourly.ts';
import * as messageNotices from './2026-11-24T0000-message-notices.ts';
import * as channelInfo from './2026-11-26T0000-channel-info.ts';
import * as channelTestResult from './2026-11-26T0200-channel-test-result.ts';
import * as retryCount from './2026-11-26T0400-retry-count.ts';
import * as logHourlyCache from './2026-11-27T0000-log-hourly-cache.ts';
import * as twoFactor from './2026-11-27T0200-two-factor.ts';
import * as passkeys from './2026-11-27T0300-passkeys.ts';
import * as subscriptions from './2026-11-27T0400-subscriptions.ts';
import * as modelMeta from './2026-11-27T0500-model-meta.ts';
import * as autoDisableDefault from './2026-11-28T0000-auto-disable-default.ts';
import * as groupPresets from './2026-11-28T0000-group-presets.ts';
import * as taskLeases from './2026-11-29T0000-task-leases.ts';
import * as midjourneyLeases from './2026-11-29T0100-midjourney-leases.ts';
import * as channelCalls from './2026-11-29T1200-channel-calls.ts';

/**
 * Every migration, in order of name. Listed statically (not read from the folder)
 * so they load the same under tsx, Vitest and a bundler. Add new files here.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-22T0000-initial': initial,
  '2026-11-22T0100-sessions': sessions,
  '2026-11-23T0000-job-leases': jobLeases,
  '2026-11-23T0100-log-hourly': logHourly,
  '2026-11-24T0000-message-notices': messageNotices,
  '2026-11-26T0000-channel-info': channelInfo,
  '2026-11-26T0200-channel-test-result': channelTestResult,
  '2026-11-26T0400-retry-count': retryCount,
  '2026-11-27T0000-log-hourly-cache': logHourlyCache,
  '2026-11-27T0200-two-factor': twoFactor,
  '2026-11-27T0300-passkeys': passkeys,
  '2026-11-27T0400-subscriptions': subscriptions,
  '2026-11-27T0500-model-meta': modelMeta,
  '2026-11-28T0000-auto-disable-default': autoDisableDefault,
  '2026-11-28T0000-group-presets': groupPresets,
  '2026-11-29T0000-task-leases': taskLeases,
  '2026-11-29T0100-midjourney-leases': midjourneyLeases,
  '2026-11-29T1200-channel-calls': channelCalls,
};
