import { LogType } from '../../shared/constants.ts';
import { scrubSecrets } from '../../shared/scrub-secrets.ts';
import type { StoredMessage } from '../../shared/stored-message.ts';
import type { NewLog } from '../db/types.ts';
import { isAppError } from '../errors.ts';
import type { ChannelConfig } from './channel-config.ts';
import { RelayError, relayAnswerOf } from './errors.ts';
import type { RelayRequest } from './prepare.ts';
import type { RelayRuntime } from './runtime.ts';

/*
 * Error log rows (log type 6, issue 28): one for every relayed call that ends in an error the client
 * sees, and one for every upstream attempt that failed and was retried elsewhere (`other.retried`).
 * They never bill (quota 0) and go through the log writer's queue, never delaying the answer. The
 * option ErrorLogEnabled turns them off. Calls whose token failed authentication write none: there
 * is nobody to attribute them to.
 */

/** One upstream attempt that failed, as runAttempts reports it (`AttemptInput.onAttemptFailed`). */
export interface AttemptFailure {
  channel: ChannelConfig;
  /** The real model tried. */
  model: string;
  /** What the client is (or would have been) told. */
  error: RelayError;
  /** The upstream's own reason, when the client is told less (global.hide_upstream_error_enabled). */
  upstreamReason?: string;
  durationMs: number;
}

/** A failed attempt as the call recorded it. */
export interface FailedAttempt extends AttemptFailure {
  /** ms since the call started, when the attempt failed. */
  atMs: number;
}

/** The error a client sees, as the row's reason: `content`, and the stored message the console renders. */
function reasonOf(err: unknown, keys: readonly string[]): { content: string; message?: StoredMessage } {
  if (err instanceof RelayError) {
    const en = scrubSecrets(err.message, keys);
    // A refusal worded by the gateway in both languages: the console shows the one it speaks.
    if (err.zh !== undefined) {
      const zh = scrubSecrets(err.zh, keys);
      return { content: zh, message: { code: 'log.relay_error', params: { en, zh } } };
    }
    return { content: en };
  }
  if (isAppError(err)) return { content: err.message, message: { code: err.messageCode, params: { ...err.params } } };
  const answer = relayAnswerOf(err);
  if (answer.status < 500) return { content: scrubSecrets(answer.message, keys) };
  return { content: '服务器内部错误，请联系管理员', message: { code: 'common.internal', params: {} } };
}

/** The status the client was answered with (a zod or Fastify error's too, as sendRelayError classifies it). */
const statusOf = (err: unknown) => relayAnswerOf(err).status;

const codeOf = (err: unknown): string =>
  isAppError(err) ? (err.detail ?? err.messageCode) : (relayAnswerOf(err).code ?? '');

/** What a row needs of the call besides the failure itself. */
export interface FailedCall {
  /** The call's request and caller (a route outside the relay pipeline has no more, accounting.ts). */
  request: Pick<RelayRequest, 'req' | 'principal'>;
  /** Wall-clock ms when the call started. */
  startedAtMs: number;
  /** The real model last tried, once known (a virtual model's); else the requested one. */
  model?: string;
  stream?: boolean;
}

interface RowInput {
  call: FailedCall;
  err: unknown;
  model: string;
  channel?: ChannelConfig;
  channelId: number;
  attempt: number;
  retried: boolean;
  durationMs: number;
  elapsedMs: number;
  chain: number[];
  upstreamReason?: string;
  /** The status the client got, when known better than the error's own (a task route's answer). */
  status?: number;
}

/** The requested model as the client named it (body, or the Gemini path), for rows written before it is parsed. */
function requestedModel(r: Pick<RelayRequest, 'req'>): string {
  const body = r.req.body as { model?: unknown } | undefined;
  if (typeof body?.model === 'string') return body.model;
  const m = /\/models\/([^/:?]+)/.exec(r.req.url);
  return m ? decodeURIComponent(m[1]) : '';
}

function errorRow(rt: RelayRuntime, i: RowInput): NewLog {
  const { principal, req } = i.call.request;
  const keys = i.channel ? [i.channel.rawKey, ...i.channel.keys] : [];
  const reason = reasonOf(i.err, keys);
  const status = i.status ?? statusOf(i.err);
  const other: Record<string, unknown> = {
    error_type: i.err instanceof RelayError && i.err.fromUpstream ? 'upstream_error' : 'gateway_error',
    error_code: codeOf(i.err),
    status_code: status,
    channel_id: i.channelId,
    attempt: i.attempt,
    retried: i.retried,
    duration_ms: Math.round(i.durationMs),
    request_id: req.id,
    admin_info: {
      use_channel: i.chain.map(String),
      ...(i.upstreamReason ? { upstream_reason: scrubSecrets(i.upstreamReason, keys) } : {}),
    },
  };
  if (reason.message) other.message = reason.message;
  const stream = i.call.stream ?? (req.body as { stream?: unknown } | undefined)?.stream === true;
  return {
    user_id: principal.user.id,
    created_at: Math.floor((i.call.startedAtMs + i.elapsedMs) / 1000),
    type: LogType.Error,
    content: reason.content,
    username: principal.user.username,
    token_name: principal.token?.name ?? '',
    token_id: principal.token?.id ?? 0,
    model_name: i.model,
    quota: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    use_time: Math.round(i.elapsedMs / 1000),
    is_stream: stream ? 1 : 0,
    channel_id: i.channelId,
    group: principal.group,
    ip: principal.user.showIpInLogs ? req.ip : '',
    request_id: req.id,
    other: JSON.stringify(other),
  };
}

const enabled = (rt: RelayRuntime) => rt.deps.services.options.get('ErrorLogEnabled');

function attemptRows(rt: RelayRuntime, call: FailedCall, attempts: readonly FailedAttempt[], lastRetried: boolean) {
  return attempts.map((a, k) =>
    errorRow(rt, {
      call,
      err: a.error,
      model: a.model,
      channel: a.channel,
      channelId: a.channel.id,
      attempt: k + 1,
      retried: k < attempts.length - 1 || lastRetried,
      durationMs: a.durationMs,
      elapsedMs: a.atMs,
      chain: attempts.slice(0, k + 1).map((x) => x.channel.id),
      upstreamReason: a.upstreamReason,
    }),
  );
}

/** A call that succeeded after failed attempts: one row per failed attempt, each marked retried. */
export function logRetriedAttempts(rt: RelayRuntime, call: FailedCall, attempts: readonly FailedAttempt[]): void {
  if (attempts.length === 0 || !enabled(rt)) return;
  for (const row of attemptRows(rt, call, attempts, true)) rt.deps.services.logWriter.write(row);
}

/** Whether the client's error is the last failed attempt's own (the call gave up on it). */
const endedOn = (err: unknown, a: FailedAttempt | undefined) =>
  a !== undefined &&
  err instanceof RelayError &&
  err.status === a.error.status &&
  err.message === a.error.message &&
  err.code === a.error.code;

/**
 * A call that ended in an error the client sees: a row per failed attempt, the last one unmarked when
 * the client's error is its own, else one more row for the final error (a refusal before any channel
 * was tried, or the answer of `servedBy` that could not be read). A client that went away (499) sees
 * no error: only its earlier failed attempts are written.
 */
export function logFailedCall(
  rt: RelayRuntime,
  call: FailedCall,
  attempts: readonly FailedAttempt[],
  err: unknown,
  servedBy?: ChannelConfig,
): void {
  if (!enabled(rt)) return;
  const gone = statusOf(err) === 499;
  const final = !gone && endedOn(err, attempts.at(-1));
  const rows = attemptRows(rt, call, attempts, !final);
  if (!final && !gone) {
    const tried = attempts.map((a) => a.channel.id);
    const elapsedMs = Date.now() - call.startedAtMs;
    rows.push(
      errorRow(rt, {
        call,
        err,
        model: call.model ?? requestedModel(call.request),
        channel: servedBy,
        channelId: servedBy?.id ?? 0,
        attempt: servedBy ? attempts.length + 1 : 0,
        retried: false,
        durationMs: elapsedMs,
        elapsedMs,
        chain: servedBy ? [...tried, servedBy.id] : tried,
      }),
    );
  }
  for (const row of rows) rt.deps.services.logWriter.write(row);
}

/**
 * A failed call outside the relay pipeline (task routes, model lists, count_tokens, a route's own
 * validation; accounting.ts): one row, with the status the client got.
 */
export function logRefusedCall(rt: RelayRuntime, call: FailedCall, err: unknown, status: number): void {
  if (!enabled(rt)) return;
  const elapsedMs = Date.now() - call.startedAtMs;
  rt.deps.services.logWriter.write(
    errorRow(rt, {
      call,
      err,
      model: call.model ?? requestedModel(call.request),
      channelId: 0,
      attempt: 0,
      retried: false,
      durationMs: elapsedMs,
      elapsedMs,
      chain: [],
      status,
    }),
  );
}
