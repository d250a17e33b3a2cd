import type { OptionReader } from '../../shared/options.ts';
import { type StoredMessage, storedMessageText } from '../../shared/stored-message.ts';
import type { ChannelRow } from '../db/types.ts';
import type { ChannelProbe, ProbeResult } from '../domains/channels/channel-probe.client.ts';
import { badRequest } from '../errors.ts';
import { describeNetFailure } from '../net-failure.ts';
import { buildChannelRequest, finishRequest } from './attempts.ts';
import { parseChannel, pickKey, upstreamModelFor } from './channel-config.ts';
import { adapterFor } from './providers/index.ts';
import { noCarry } from './canonical/carry.ts';
import type { AttemptContext, ProviderAdapter, RelayMode } from './providers/types.ts';
import { sendAttempt } from './upstream.ts';

/*
 * The admin's channel test (relay.md §4: "runs through the same adapter path"): the
 * channel row is parsed as the routing cache parses it, the model mapped, the key
 * picked, the request built and the answer read by the channel type's adapter, so
 * URL, auth headers, signing, model mapping and error mapping are those of real traffic.
 */

/** A test gives up after this long (headers and body together). */
const TEST_TIMEOUT_MS = 30_000;

/** Rerankers first: `bge-reranker-*` would otherwise read as an embedding model. */
const isRerankModel = (model: string) => /rerank/i.test(model);
const isEmbeddingModel = (model: string) => /embed|bge-|m3e/i.test(model);

/**
 * The request the test model is served by: rerank or embeddings by its name, else chat;
 * when the adapter does not serve that (a rerank-only Cohere channel, a reranker on a
 * chat-only provider), the first mode it does serve among chat, embeddings and rerank.
 */
function testModeFor(adapter: ProviderAdapter, model: string): RelayMode | undefined {
  const wanted: RelayMode = isRerankModel(model) ? 'rerank' : isEmbeddingModel(model) ? 'embeddings' : 'chat';
  return ([wanted, 'chat', 'embeddings', 'rerank'] as const).find((m) => adapter.supports(m));
}

/** The smallest canonical (OpenAI-format) body per mode: one message and one output token, one input. */
function testBody(mode: RelayMode, model: string): Record<string, unknown> {
  if (mode === 'embeddings') return { model, input: 'hi' };
  if (mode === 'rerank') return { model, query: 'hi', documents: ['hi'], top_n: 1 };
  return { model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 1, stream: false };
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** A failed test: new-api's Chinese words, their code and parameters beside them, and any technical detail. */
function failed(timeMs: number, reason: StoredMessage, detail?: string): ProbeResult {
  return { ok: false, timeMs, message: storedMessageText(reason), reason, ...(detail ? { detail } : {}) };
}

/** Some OpenAI-style resellers answer errors with HTTP 200 and an `error` object. */
function hasErrorObject(text: string): boolean {
  try {
    const body = JSON.parse(text) as unknown;
    return typeof body === 'object' && body !== null && 'error' in body && (body as { error: unknown }).error != null;
  } catch {
    return false;
  }
}

/**
 * Tests one channel with `model`: one tiny non-streaming request through its adapter.
 * Never throws for an upstream failure (the result says it); throws AppError when the
 * channel type has no adapter (task channels, types the relay cannot serve).
 */
async function testChannel(
  opt: OptionReader,
  row: ChannelRow,
  model: string,
  signal?: AbortSignal,
  key?: string,
): Promise<ProbeResult> {
  const adapter = adapterFor(row.type);
  const mode = adapter && testModeFor(adapter, model);
  if (!adapter || !mode) throw badRequest('channel.untestable');
  const channel = parseChannel(row);
  const ctx: AttemptContext = {
    mode,
    channel,
    key: key ?? pickKey(channel),
    upstreamModel: upstreamModelFor(channel, model).name,
    stream: false,
    options: opt,
    carry: noCarry,
  };

  let req;
  try {
    req = await finishRequest(adapter, ctx, await buildChannelRequest(adapter, ctx, testBody(mode, model)));
  } catch (err) {
    // e.g. a Bedrock key not in AK|SK|region form: the channel cannot serve this model either.
    return failed(0, { code: 'channel.test_build_failed', params: { reason: errorText(err) } });
  }

  const timeout = AbortSignal.timeout(TEST_TIMEOUT_MS);
  const started = performance.now();
  let status: number;
  let text: string;
  try {
    const res = await sendAttempt(adapter, ctx, req, signal ? AbortSignal.any([signal, timeout]) : timeout);
    status = res.statusCode;
    text = await res.body.text();
  } catch (err) {
    const timeMs = Math.round(performance.now() - started);
    const net = describeNetFailure(err, 'upstream', req.url);
    return failed(timeMs, net.message, net.detail);
  }
  const timeMs = Math.round(performance.now() - started);

  if (status < 200 || status >= 300 || hasErrorObject(text))
    return failed(timeMs, {
      code: 'channel.upstream_status_detail',
      params: { status, detail: adapter.mapError(status, text).message },
    });
  try {
    // The relay's own reading of a 2xx answer: one it cannot convert would reach no client.
    adapter.convertResponse(ctx, text);
  } catch (err) {
    return failed(timeMs, { code: 'channel.upstream_status_detail', params: { status, detail: errorText(err) } });
  }
  return { ok: true, timeMs, message: '' };
}

/** The channel service's `test` (ChannelProbe), reading provider settings from the site options. */
export const createAdapterChannelTest =
  (opt: OptionReader): ChannelProbe['test'] =>
  (row, model, signal, key) =>
    testChannel(opt, row, model, signal, key);
