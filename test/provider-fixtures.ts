import { expect } from 'vitest';
import { startFakeAnthropic } from '../scripts/fake-upstream/anthropic.ts';
import type { FakeUpstream } from '../scripts/fake-upstream/server.ts';
import { ledger, type RelayHarness, insertToken, insertUser } from './relay-fixtures.ts';

export const USER_QUOTA = 10_000_000;

export const ascending = (xs: number[]) => [...xs].sort((a, b) => a - b);

/** A user with a limited token; returns its key and a ledger reader. */
export async function payer(h: RelayHarness) {
  const user = await insertUser(h.deps, { quota: USER_QUOTA });
  const token = await insertToken(h.deps, user.id, { remainQuota: 5_000_000 });
  return {
    user,
    token,
    key: token.key,
    /**
     * The charged quotas, smallest first: each request is settled after its answer was sent, so the
     * rows of two requests in a row may be written in either order.
     */
    async charges() {
      await h.drain();
      const l = await ledger(h.deps, user.id, token.id);
      expect(Number(l.user.quota)).toBe(USER_QUOTA - l.logQuota);
      expect(Number(l.token!.used_quota)).toBe(l.logQuota);
      return ascending(l.logs.map((x) => Number(x.quota)));
    },
    async logs() {
      await h.drain();
      return (await ledger(h.deps, user.id, token.id)).logs;
    },
  };
}

/** Ratio-mode quota written out independently of the implementation (relay.md §5). */
export const quotaOf = (
  u: { prompt: number; completion: number; cached?: number; creation?: number },
  r: { model: number; completion: number; cache?: number; creation?: number; group?: number },
) =>
  Math.round(
    (u.prompt -
      (u.cached ?? 0) +
      (u.cached ?? 0) * (r.cache ?? 1) +
      (u.creation ?? 0) * (r.creation ?? 1) +
      u.completion * r.completion) *
      r.model *
      (r.group ?? 1),
  );

export const startAnthropic = (): Promise<FakeUpstream> => startFakeAnthropic();

/** A 1x1 transparent PNG as a data URL. */
export const PNG_1PX =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** A channel's status once every settlement (and any auto-disable it caused) has run. */
export async function channelStatus(h: RelayHarness, id: number): Promise<number> {
  await h.drain();
  const row = await h.deps.db.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow();
  return Number(row.status);
}

/** A one-turn chat expected to fail: the OpenAI SDK's error (its `status` and `message`). */
export const failedChat = (h: RelayHarness, key: string, model: string) =>
  h
    .client(key)
    .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] })
    .catch((e: { status?: number; message?: string }) => e);

/** A one-turn streamed chat read until it ends or breaks: the text received and the error, if any. */
export async function streamUntilFailure(h: RelayHarness, key: string, model: string) {
  const stream = await h
    .client(key)
    .chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }], stream: true });
  let text = '';
  let failure: unknown;
  try {
    for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
  } catch (e) {
    failure = e;
  }
  return { text, failure };
}
