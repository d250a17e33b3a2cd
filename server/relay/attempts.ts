import { scrubSecrets } from '../../shared/scrub-secrets.ts';
import type { AppDeps } from '../context.ts';
import { netFailurePhrase } from '../net-failure.ts';
import { pinnedChoice, type SessionAffinity } from './affinity/pins.ts';
import type { RelayCancel } from './cancel.ts';
import { createCarryStore } from './canonical/carry.ts';
import { type ChannelConfig, hasOtherKey, pickKey, upstreamModelFor } from './channel-config.ts';
import { disableKey, isDisablingError, shouldAutoDisable } from './channel-health.ts';
import { RelayError, refusal } from './errors.ts';
import { adapterFor } from './providers/index.ts';
import { nativeSupportFor } from './providers/native-support.ts';
import { speaksResponses } from './providers/openai/responses-bridge/channel.ts';
import type { AttemptContext, NativeProtocol, ProviderAdapter, RelayMode, UpstreamRequest } from './providers/types.ts';
import { isRetryableStatus, maxAttempts } from './retry.ts';
import type { Candidate } from './routing-cache.ts';
import { selectChannel } from './select-channel.ts';
import { relayRuntimeOf } from './runtime.ts';
import { isHeadersTimeout, sendAttempt, type UpstreamResponse } from './upstream.ts';
import type { AttemptSpan } from '../telemetry/genai.ts';
import type { AttemptFailure } from './error-log.ts';
import { countedUsage, loadTokenizers } from './usage.ts';

export interface AttemptInput {
  mode: RelayMode;
  model: string;
  body: Record<string, unknown>;
  /** The client's body serialised as received (global.pass_through_request_enabled). */
  rawBody: string;
  stream: boolean;
  candidates: readonly Candidate[];
  pinned: boolean;
  abort: RelayCancel;
  /** The paying user: turn carry-over (reasoning signatures) is kept per user. */
  userId: number;
  /** Told of every attempt that failed, as it fails (the error log rows of error-log.ts). */
  onAttemptFailed?: (f: AttemptFailure) => void;
  /** A traced request's span per attempt (telemetry/genai.ts); its headers carry the traceparent upstream. */
  traceAttempt?: (channel: ChannelConfig, model: string) => AttemptSpan;
  /** The session's pin (affinity/pins.ts): the first attempt's channel and key; the attempt that answers re-pins. */
  affinity?: SessionAffinity;
  /** The client's body in a front door's own protocol, relayed unchanged to channels that speak it. */
  native?: {
    protocol: NativeProtocol;
    body: Record<string, unknown>;
    headers?: Record<string, string>;
    /** The answer on channels that do not speak the protocol, when the request cannot be converted. */
    nativeOnly?: RelayError;
  };
}

/** A 2xx upstream answer, ready to be streamed or read. */
export interface AttemptSuccess {
  res: UpstreamResponse;
  ctx: AttemptContext;
  adapter: ProviderAdapter;
  mapped: boolean;
  /** Channels tried, in order (the log's admin_info.use_channel). */
  chain: number[];
  /** ms spent waiting on upstreams (excluded from the gateway's own time). */
  upstreamWaitMs: number;
  /** The native body went upstream unchanged: the answer is in the front door's protocol already. */
  native: boolean;
  /** The answer came from the session's pinned channel and key (affinity/pins.ts): the log row says so. */
  followedPin: boolean;
}

export class AttemptsFailed extends RelayError {
  constructor(
    err: RelayError,
    readonly chain: number[],
    readonly upstreamWaitMs: number,
  ) {
    super(err.status, err.message, err.code, err.fromUpstream, err.zh);
  }
}

/**
 * Tries channels until one answers 2xx (relay.md §3-4): the i-th attempt picks by
 * priority level i, failed channels are never picked again, only retryable
 * upstream failures move on, a pinned channel is tried once. Dead keys are taken
 * out of service on the way. Nothing has reached the client while this runs.
 */
export async function runAttempts(deps: AppDeps, a: AttemptInput): Promise<AttemptSuccess> {
  const opt = deps.services.options.get;
  const attempts = a.pinned ? 1 : maxAttempts(opt);
  const failed = new Set<number>();
  const chain: number[] = [];
  let upstreamWaitMs = 0;
  let last: RelayError | undefined;
  /** Keys tried per channel; a multi-key channel whose key failed is tried again with another (issue 28). */
  const triedKeys = new Map<number, Set<string>>();
  let sameChannel: Candidate | undefined;

  for (let i = 0; i < attempts; i++) {
    const pinned = i === 0 && a.affinity ? pinnedChoice(a.candidates, await a.affinity.pin) : undefined;
    const cand = sameChannel ?? pinned?.cand ?? selectChannel(a.candidates, i, failed);
    sameChannel = undefined;
    if (!cand) break;
    const channel = cand.channel;
    const attemptAt = performance.now();
    const span = a.traceAttempt?.(channel, a.model);
    const report = (error: RelayError, upstreamReason?: string, status?: number) => {
      span?.end(status, error.code ?? String(error.status));
      a.onAttemptFailed?.({
        channel,
        model: a.model,
        error,
        upstreamReason,
        durationMs: performance.now() - attemptAt,
      });
    };
    chain.push(channel.id);
    failed.add(channel.id);
    const adapter = adapterFor(channel.type);
    if (!adapter || !adapter.supports(a.mode)) {
      last = refusal(
        503,
        `Channel #${channel.id} (type ${channel.type}) does not serve this endpoint`,
        `渠道 #${channel.id} 的类型 ${channel.type} 暂不支持此接口`,
        'channel_type_unsupported',
      );
      report(last);
      continue;
    }
    const up = upstreamModelFor(channel, a.model);
    // A Responses client on a channel that speaks Responses: its body goes out as it came, in the Responses mode.
    const responses = a.native?.protocol === 'responses' && adapter.supports('responses') && speaksResponses(channel);
    const ctx: AttemptContext = {
      mode: responses ? 'responses' : a.mode,
      channel,
      key: pinned?.key ?? pickKey(channel, triedKeys.get(channel.id)),
      upstreamModel: up.name,
      stream: a.stream,
      options: opt,
      clientProtocol: a.native?.protocol,
      carry: createCarryStore(deps.kv, a.userId),
      ...(adapter.reportsNoUsage ? { countUsage: await usageCounter(a.model, a.body) } : {}),
      headersTimeoutMs: relayRuntimeOf(deps)?.tuning.upstreamHeadersMs,
    };
    const support = a.native && !responses ? nativeSupportFor(adapter, a.native.protocol) : undefined;
    const native = responses || (support !== undefined && (support.serves?.(up.name) ?? true));
    if (!native && a.native?.nativeOnly) {
      last = a.native.nativeOnly;
      report(last);
      continue;
    }
    let req;
    try {
      req =
        native && support && a.native
          ? await support.buildRequest(
              ctx,
              nativeChannelBody(channel, a.native.protocol, a.native.body),
              a.native.headers,
            )
          : await buildChannelRequest(adapter, ctx, responses && a.native ? a.native.body : a.body);
      // Pass-through sends the client's body as it came: no conversion, no override (usage then counted).
      // (Multipart uploads are rebuilt from the client's own parts already; their JSON form would be meaningless.)
      req = await finishRequest(adapter, ctx, req, opt('global.pass_through_request_enabled') ? a.rawBody : undefined);
    } catch (err) {
      // A conversion failure (e.g. an image URL that cannot be fetched) is the client's: final, never retried.
      const refused = err instanceof RelayError ? err : new RelayError(400, (err as Error).message, 'invalid_request');
      report(refused);
      throw new AttemptsFailed(refused, chain, upstreamWaitMs);
    }

    // The upstream continues the client's trace (W3C traceparent) when the request is traced.
    if (span) req = { ...req, headers: { ...req.headers, ...span.headers } };
    const sentAt = performance.now();
    let res: UpstreamResponse;
    try {
      res = await sendAttempt(adapter, ctx, req, a.abort);
    } catch (err) {
      upstreamWaitMs += performance.now() - sentAt;
      if (a.abort.aborted) span?.end(undefined, 'client_closed');
      if (a.abort.aborted)
        throw new AttemptsFailed(
          refusal(499, 'The client closed the connection', '客户端已断开连接', 'client_closed'),
          chain,
          upstreamWaitMs,
        );
      if (isHeadersTimeout(err)) {
        // Like a 504: the upstream may still be working (and billing), so it is retried only when configured.
        last = new RelayError(504, 'The upstream did not answer in time', 'upstream_timeout', true, '上游响应超时');
        callFailed(deps, channel.id, last);
        report(last);
        if (!isRetryableStatus(504, opt, adapter, false)) break;
        continue;
      }
      const why = netFailurePhrase(err);
      last = new RelayError(
        502,
        `Could not connect to the upstream: ${why.en}`,
        'upstream_connection_error',
        true,
        `上游连接失败：${why.zh}`,
      );
      callFailed(deps, channel.id, last);
      report(last);
      continue;
    }
    upstreamWaitMs += performance.now() - sentAt;
    if (res.statusCode >= 200 && res.statusCode < 300) {
      span?.end(res.statusCode);
      deps.services.channels.calls.ok(channel.id);
      a.affinity?.remember(channel, ctx.key);
      return { res, ctx, adapter, mapped: up.mapped, chain, upstreamWaitMs, native, followedPin: pinned !== undefined };
    }

    const text = await res.body.text().catch(() => '');
    // The upstream's words go on to the client, the error log, the key's reason and root's notice:
    // without the key an OpenAI-style 401 quotes (issue 39).
    const mapped = adapter.mapError(res.statusCode, text);
    const e = { ...mapped, message: scrubSecrets(mapped.message, [channel.rawKey, ...channel.keys]) };
    const dead = shouldAutoDisable(deps, channel, e);
    // A dead key (auto-ban or not) or a rate-limited one: another enabled key of the same channel goes first,
    // unless the operator asked to always switch channel (global.auto_retry_force_channel_switch).
    const tried = triedKeys.get(channel.id) ?? new Set<string>();
    triedKeys.set(channel.id, tried.add(ctx.key));
    const keyFault = dead || res.statusCode === 429 || isDisablingError(deps, channel.type, e);
    if (keyFault && !opt('global.auto_retry_force_channel_switch') && hasOtherKey(channel, tried)) sameChannel = cand;
    if (dead)
      await disableKey(deps, channel, ctx.key, `${e.status} ${e.message}`).catch((err) =>
        deps.log.error({ err }, 'auto-disable failed'),
      );
    // A client's bad request (400, 404, 422...) says nothing about the channel; the rest is the channel failing.
    if (dead || res.statusCode >= 500 || channelFaultStatuses.has(res.statusCode))
      deps.services.channels.calls.failed(channel.id, { status: res.statusCode, message: e.message });
    const status = Number(channel.statusCodeMapping[String(res.statusCode)] ?? res.statusCode) || res.statusCode;
    last = clientError(deps, status, e.message, e.code);
    report(last, last.message === e.message ? undefined : e.message, res.statusCode);
    if (!isRetryableStatus(status, opt, adapter, dead || sameChannel !== undefined)) break;
  }
  throw new AttemptsFailed(last ?? noChannel(a.model), chain, upstreamWaitMs);
}

/** Upstream statuses that mean the channel (its key, account or rate) failed, not the client's request. */
const channelFaultStatuses = new Set([401, 402, 403, 408, 429]);

/** The channel list shows this failure until a later call or test (issue 45); in memory, written in batches. */
const callFailed = (deps: AppDeps, channelId: number, e: RelayError) =>
  deps.services.channels.calls.failed(channelId, {
    status: e.status,
    message: e.message,
    ...(e.zh ? { zh: e.zh } : {}),
  });

/** What the client is told about an upstream failure. */
function clientError(deps: AppDeps, status: number, message: string, code?: string): RelayError {
  if (status === 429)
    return new RelayError(
      429,
      'The upstream is overloaded, please try again later',
      code ?? 'upstream_saturated',
      true,
      '上游负载已饱和，请稍后再试',
    );
  const hide = deps.services.options.get('global.hide_upstream_error_enabled');
  if (hide)
    return new RelayError(
      status,
      'The upstream failed, please try again later',
      code ?? 'upstream_error',
      true,
      '上游服务出错，请稍后再试',
    );
  return new RelayError(status, message, code ?? 'upstream_error', true);
}

const noChannel = (model: string) =>
  refusal(503, `No channel is available for model ${model}`, `模型 ${model} 无可用渠道`, 'no_available_channel');

/**
 * The adapter's request for a canonical body on this attempt's channel, the channel's system prompt
 * added first. The relay and the admin's channel test (channel-test.ts) both build requests here.
 */
export const buildChannelRequest = (
  adapter: ProviderAdapter,
  ctx: AttemptContext,
  body: Record<string, unknown>,
): UpstreamRequest | Promise<UpstreamRequest> => adapter.buildRequest(ctx, channelBody(ctx.channel, ctx.mode, body));

/**
 * The last steps before sending (the channel test takes them too): the client's own body when
 * `passThroughBody` is given, else the channel's param_override merged into the built JSON body
 * (multipart uploads are left alone); then the provider's signature, which covers the final bytes.
 */
export async function finishRequest(
  adapter: ProviderAdapter,
  ctx: AttemptContext,
  req: UpstreamRequest,
  passThroughBody?: string,
): Promise<UpstreamRequest> {
  const override = ctx.channel.paramOverride;
  if (typeof req.body === 'string') {
    if (passThroughBody !== undefined) req.body = passThroughBody;
    else if (Object.keys(override).length > 0)
      req.body = JSON.stringify({ ...(JSON.parse(req.body) as object), ...override });
  }
  return adapter.sign ? adapter.sign(ctx, req) : req;
}

/** The channel's system prompt in a native body (Anthropic `system`, Gemini `systemInstruction`) when the client sent none. */
export function nativeChannelBody(
  channel: ChannelConfig,
  protocol: NativeProtocol,
  body: Record<string, unknown>,
): Record<string, unknown> {
  const prompt = channel.systemPrompt;
  if (!prompt) return body;
  const given = (v: unknown) => (Array.isArray(v) ? v.length > 0 : Boolean(v));
  if (protocol === 'anthropic') return given(body.system) ? body : { ...body, system: prompt };
  if (given(body.systemInstruction) || given(body.system_instruction)) return body;
  return { ...body, systemInstruction: { parts: [{ text: prompt }] } };
}

/**
 * Channel-level body changes that are not conversions: the system prompt when the client sent none.
 * Token counting (count-tokens.ts) applies it too, so a count matches what the completion would send.
 */
export function channelBody(
  channel: ChannelConfig,
  mode: RelayMode,
  body: Record<string, unknown>,
): Record<string, unknown> {
  if (mode !== 'chat' || !channel.systemPrompt || !Array.isArray(body.messages)) return body;
  const messages = body.messages as { role?: string }[];
  if (messages.some((m) => m.role === 'system')) return body;
  return { ...body, messages: [{ role: 'system', content: channel.systemPrompt }, ...messages] };
}

/** The relay's own count for a provider that reports no usage (what billing would count), tokenizers loaded. */
async function usageCounter(model: string, body: Record<string, unknown>) {
  await loadTokenizers();
  return (produced: string) => countedUsage(model, body, produced);
}
