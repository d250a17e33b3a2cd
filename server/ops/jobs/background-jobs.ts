import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import { createJobScheduler, type JobDef, type JobScheduler, type SchedulerOptions } from './scheduler.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY_SECONDS = 86_400;

/**
 * The gateway's periodic jobs, each switched and paced by a site option (0 = off),
 * each reusing the service the admin's button calls, so a scheduled run and a
 * manual one behave alike.
 */
export function backgroundJobs(deps: AppDeps): JobDef[] {
  const { channels, logs, options, updates } = deps.services;
  return [
    {
      // relay.md §4: test-all re-enables recovered auto-disabled channels (AutomaticEnableChannelEnabled)
      // and auto-disables failing ones (AutomaticDisableChannelEnabled), the same rules as the admin's run.
      name: 'channel-tests',
      intervalMs: () => options.get('ChannelTestIntervalMinutes') * MINUTE,
      run: (signal) => channels.testAll(signal),
    },
    {
      name: 'channel-balances',
      intervalMs: () => options.get('ChannelBalanceRefreshIntervalMinutes') * MINUTE,
      run: (signal) => channels.updateAllBalances(signal),
    },
    {
      // A newer release is announced to root in the inbox once (UpdateCheckEnabled, UPDATE_FEED_URL).
      name: 'update-check',
      intervalMs: () => (options.get('UpdateCheckEnabled') && deps.config.updateFeedUrl ? DAY_SECONDS * 1000 : 0),
      run: () => updates.announceNewer(),
    },
    {
      // Hourly: retention is counted in days, so a finer pace would only add statements.
      name: 'log-retention',
      intervalMs: () => (options.get('LogRetentionDays') > 0 ? HOUR : 0),
      async run(signal) {
        const days = options.get('LogRetentionDays');
        if (days <= 0) return;
        const before = nowSeconds() - days * DAY_SECONDS;
        const deleted = await logs.deleteBefore(before, signal);
        if (deleted > 0) deps.log.info({ deleted, days }, 'log retention deleted old logs');
      },
    },
    {
      // Issue 32: subscription periods found due are renewed and ended plans expired (requests renew
      // lazily too; each renewal is conditional, so the two never grant a period twice).
      name: 'subscription-periods',
      intervalMs: () => MINUTE,
      run: async () => {
        await deps.services.subscriptions.users.maintain();
      },
    },
  ];
}

const schedulers = new WeakMap<AppDeps, JobScheduler>();

/** The scheduler started for these deps (tests run a tick on demand). */
export const jobSchedulerOf = (deps: AppDeps): JobScheduler | undefined => schedulers.get(deps);

/** Starts the jobs with the app and stops them (waiting for running ones) before the database closes. */
export function registerBackgroundJobs(app: FastifyInstance, deps: AppDeps, opts?: SchedulerOptions): void {
  const scheduler = createJobScheduler(deps, backgroundJobs(deps), opts);
  schedulers.set(deps, scheduler);
  app.addHook('onReady', async () => scheduler.start());
  app.addHook('onClose', () => scheduler.stop());
}
