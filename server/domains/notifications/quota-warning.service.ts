import { currencyOfOptions } from '../../../shared/currency.ts';
import { quotaText } from '../../../shared/quota-format.ts';
import { readUserSetting } from '../../../shared/schemas/user-setting.ts';
import type { Infra } from '../../context.ts';
import { nowSeconds } from '../../db/time.ts';
import type { SendMail } from '../mail/mailer.client.ts';
import type { OptionsService } from '../options/options.service.ts';
import { findWarningRecipient } from './quota-warning.repo.ts';
import { postWebhook, type WebhookPayload } from './webhook.client.ts';

/*
 * "Your quota is running low": sent once when a settled request takes a user's quota
 * from at/above their threshold to below it. The relay only drops an event into a
 * bounded queue (never awaited, never slows a request); one worker evaluates events
 * in order, remembers who was already warned, and sends by webhook or e-mail.
 *
 * Integration point for billing: after the settle's conditional UPDATE ... RETURNING
 * quota, call notifyIfCrossed(deps, userId, quotaBefore, quotaAfter) with the exact
 * balances around that update.
 */

export type QuotaWarningService = ReturnType<typeof createQuotaWarningService>;

interface Event {
  userId: number;
  before: number;
  after: number;
}

interface UserState {
  /** False after a warning, until the quota is seen at/above the threshold again. */
  armed: boolean;
  lastAfter: number;
}

const MAX_QUEUE = 10_000;
const MAX_TRACKED_USERS = 100_000;

export function createQuotaWarningService(
  infra: Infra,
  options: OptionsService,
  sendMail: SendMail,
  opts: { minIntervalMs?: number } = {},
) {
  // Safety net against duplicated or stale settle events: at most one warning per user per interval.
  const minIntervalMs = opts.minIntervalMs ?? 10 * 60_000;
  const states = new Map<number, UserState>();
  const queue: Event[] = [];
  let running: Promise<void> | undefined;
  // Thresholds change rarely; caching them keeps the worker off the database for most events.
  const thresholds = new Map<number, number>();
  infra.bus.subscribe('users', (id) => (id ? thresholds.delete(Number(id)) : thresholds.clear()));
  options.onChange((key) => {
    if (key === 'QuotaRemindThreshold' || key === '*') thresholds.clear();
  });

  async function thresholdOf(userId: number): Promise<number | undefined> {
    const cached = thresholds.get(userId);
    if (cached !== undefined) return cached;
    const user = await findWarningRecipient(infra.db, userId);
    if (!user) return undefined;
    const t = readUserSetting(user.setting, options.get('QuotaRemindThreshold')).quota_warning_threshold;
    if (thresholds.size >= MAX_TRACKED_USERS) thresholds.clear();
    thresholds.set(userId, t);
    return t;
  }

  async function deliver(userId: number, quotaAfter: number): Promise<void> {
    const user = await findWarningRecipient(infra.db, userId);
    if (!user) return;
    const setting = readUserSetting(user.setting, options.get('QuotaRemindThreshold'));
    // A balance, at whole cents or fen rounded down: never more than can be spent.
    const remaining = quotaText(
      quotaAfter,
      options.get('QuotaPerUnit'),
      currencyOfOptions(options.get.bind(options)),
      'floor',
    );
    const topUpLink =
      options.get('TopUpLink') || (options.get('ServerAddress') ? `${options.get('ServerAddress')}/app/topup` : '');
    const payload: WebhookPayload = {
      type: 'quota_warning',
      title: '您的额度即将用尽',
      content: topUpLink
        ? '您的额度即将用尽，当前剩余额度为 {{value}}，为了不影响您的使用，请及时充值。充值链接：{{value}}'
        : '您的额度即将用尽，当前剩余额度为 {{value}}，为了不影响您的使用，请及时充值。',
      values: topUpLink ? [remaining, topUpLink] : [remaining],
      timestamp: nowSeconds(),
    };
    if (setting.notify_type === 'webhook') {
      if (setting.webhook_url === '') return;
      await postWebhook(setting.webhook_url, setting.webhook_secret, payload);
      return;
    }
    const to = setting.notification_email || user.email;
    if (to === '' || options.get('SMTPServer') === '') return;
    let text = payload.content;
    for (const v of payload.values) text = text.replace('{{value}}', v);
    await sendMail({
      to,
      subject: `${options.get('SystemName')}：${payload.title}`,
      html: `<p>${escapeHtml(text)}</p>`,
    });
  }

  async function evaluate(e: Event): Promise<void> {
    const threshold = await thresholdOf(e.userId);
    if (threshold === undefined) return;
    const st = states.get(e.userId) ?? { armed: true, lastAfter: e.before };
    if (e.after >= threshold) {
      st.armed = true;
    } else if (e.before >= threshold) {
      // Quota rose between two events (a top-up): this is a new crossing, not the old one again.
      if (e.before > st.lastAfter) st.armed = true;
      if (st.armed) {
        st.armed = false;
        const limit = await infra.rateLimits.take(`quota-warning:${e.userId}`, 1, Math.max(1, minIntervalMs));
        if (limit.allowed || minIntervalMs === 0) {
          await deliver(e.userId, e.after).catch((err: unknown) =>
            infra.log.warn({ err, userId: e.userId }, 'quota warning could not be delivered'),
          );
        }
      }
    }
    st.lastAfter = e.after;
    states.delete(e.userId);
    if (states.size >= MAX_TRACKED_USERS) states.delete(states.keys().next().value as number);
    states.set(e.userId, st);
  }

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const e = queue.shift() as Event;
      await evaluate(e).catch((err: unknown) => infra.log.warn({ err }, 'quota warning check failed'));
    }
    running = undefined;
  }

  return {
    /** Non-blocking: records the event and returns at once. */
    enqueue(userId: number, quotaBefore: number, quotaAfter: number): void {
      // Only a decrease can cross downwards; an increase still re-arms, so keep it when it ends above.
      if (quotaAfter === quotaBefore) return;
      if (queue.length >= MAX_QUEUE) return; // overload: a warning is not worth memory
      queue.push({ userId, before: quotaBefore, after: quotaAfter });
      running ??= Promise.resolve().then(drain);
    },
    /** Resolves when every queued event has been handled (tests, graceful shutdown). */
    async idle(): Promise<void> {
      while (running) await running;
    },
  };
}

/** The relay's hook: fire and forget. */
export function notifyIfCrossed(
  deps: { services: { quotaWarnings: QuotaWarningService } },
  userId: number,
  quotaBefore: number,
  quotaAfter: number,
): void {
  deps.services.quotaWarnings.enqueue(userId, quotaBefore, quotaAfter);
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
