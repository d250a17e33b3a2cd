import semver from 'semver';
import { fetch } from 'undici';
import { z } from 'zod';
import type { MessageParams, ServerMessageCode } from '../../../shared/server-messages.ts';
import type { Infra } from '../../context.ts';
import { AppError, badRequest } from '../../errors.ts';
import { describeNetFailure } from '../../net-failure.ts';
import type { MessagesService } from '../messages/messages.service.ts';
import type { OptionsService } from '../options/options.service.ts';

/*
 * The update check (accounts spec: operation settings, "check update failed"): the
 * newest release from a public release feed, compared with the running version. The
 * feed is GitHub's "latest release" JSON (UPDATE_FEED_URL); the server reads it, so
 * the console's CSP and the feed's CORS do not matter. With UpdateCheckEnabled a daily
 * job tells root, in the console inbox, about a release newer than the one running.
 */

const TIMEOUT_MS = 10_000;
const MAX_BYTES = 1024 * 1024;

/** GitHub's release object, the fields we show. */
const releaseSchema = z.object({
  tag_name: z.string().min(1),
  html_url: z.string().url(),
  name: z.string().nullish(),
  body: z.string().nullish(),
  published_at: z.string().nullish(),
});

export const updateInfoSchema = z.object({
  current: z.string(),
  latest: z.string(),
  /** The feed's release is newer than the running version. */
  newer: z.boolean(),
  url: z.string(),
  notes: z.string(),
  publishedAt: z.string(),
});
export type UpdateInfo = z.infer<typeof updateInfoSchema>;

const failed = (messageCode: ServerMessageCode, params?: MessageParams, technical?: string) =>
  new AppError('SERVICE_UNAVAILABLE', messageCode, params, { detail: 'update_check_failed', technical });

/** Whether `latest` is a newer release than `current` (tags like v1.2.3; unparsable ones never are). */
export function isNewer(latest: string, current: string): boolean {
  const l = semver.coerce(latest, { includePrerelease: true });
  const c = semver.coerce(current, { includePrerelease: true });
  return l !== null && c !== null && semver.gt(l, c);
}

export type UpdateCheckService = ReturnType<typeof createUpdateCheckService>;

export function createUpdateCheckService(
  infra: Pick<Infra, 'config' | 'log'>,
  options: OptionsService,
  messages: MessagesService,
) {
  const current = infra.config.version;

  async function check(): Promise<UpdateInfo> {
    const feed = infra.config.updateFeedUrl;
    // A setting the operator has not made (a 400 like other features left off), not a failing feed (503).
    if (!feed)
      throw badRequest(
        'update.no_feed',
        {},
        { detail: 'update_check_failed', technical: 'Set UPDATE_FEED_URL to a release feed to enable update checks.' },
      );
    let text: string;
    try {
      const res = await fetch(feed, {
        headers: { accept: 'application/vnd.github+json, application/json', 'user-agent': `switchyard/${current}` },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (!res.ok) throw failed('update.http', { status: res.status });
      text = await res.text();
    } catch (err) {
      if (err instanceof AppError) throw err;
      const net = describeNetFailure(err, 'release_feed', feed);
      throw failed(net.message.code, net.message.params, net.detail);
    }
    if (text.length > MAX_BYTES) throw failed('update.too_large');
    let release: z.infer<typeof releaseSchema>;
    try {
      release = releaseSchema.parse(JSON.parse(text));
    } catch {
      throw failed('update.bad_format');
    }
    return {
      current,
      latest: release.tag_name,
      newer: isNewer(release.tag_name, current),
      url: release.html_url,
      notes: (release.body ?? '').slice(0, 4000),
      publishedAt: release.published_at ?? '',
    };
  }

  /** The daily job: a newer release is announced to root once (the message's title names the release). */
  async function announceNewer(): Promise<void> {
    if (!options.get('UpdateCheckEnabled') || !infra.config.updateFeedUrl) return;
    const info = await check();
    if (!info.newer) return;
    const notes = info.notes ? `\n\n${info.notes}` : '';
    const sent = await messages.toRootOnce({
      title: { code: 'notice.update_title', params: { version: info.latest } },
      content: {
        code: 'notice.update',
        params: { current: info.current, latest: info.latest, url: info.url, notes },
      },
    });
    if (sent) infra.log.info({ latest: info.latest, current: info.current }, 'a newer release was announced to root');
  }

  return { check, announceNewer };
}
