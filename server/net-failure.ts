import type { MessageParams, ServerMessage, ServerMessageCode } from '../shared/server-messages.ts';
import { serverText } from '../shared/server-messages.ts';
import { AppError, type ErrorCode } from './errors.ts';

/*
 * The one place a failed outgoing connection (Node's net/dns/tls errors, undici's UND_ERR_*, fetch's
 * "fetch failed" wrapper, an AbortSignal timeout) becomes a sentence a person can act on: "Cannot
 * connect to the upstream: connection refused (127.0.0.1:9999)". The raw text ("connect ECONNREFUSED
 * 127.0.0.1:9999") is kept as the `detail`, which the console shows under a "details" disclosure
 * (tRPC `error.data.detail`, the REST envelope's top-level `detail`, a channel test result's `detail`).
 */

/** What was being reached: a registry text, translated by the console as a parameter. */
export type NetTarget = 'upstream' | 'release_feed' | 'oidc';

const targetCodes: Record<NetTarget, ServerMessageCode> = {
  upstream: 'net.target.upstream',
  release_feed: 'net.target.release_feed',
  oidc: 'net.target.oidc',
};

export interface NetFailure {
  /** The sentence, as a registry message (its Chinese text is what REST answers). */
  message: ServerMessage;
  /** The technical text, untranslated: the error's own message and code. */
  detail: string;
}

interface ErrorLike {
  name?: string;
  code?: string;
  message?: string;
  address?: string;
  port?: number;
  hostname?: string;
  host?: string;
  cause?: unknown;
  errors?: unknown[];
}

/** The error that says what happened: fetch's TypeError wraps it as `cause`, dual-stack connects as `errors`. */
function innermost(err: unknown): ErrorLike {
  let e = (typeof err === 'object' && err !== null ? err : { message: String(err) }) as ErrorLike;
  for (let i = 0; i < 5; i++) {
    if (e.code === undefined && typeof e.cause === 'object' && e.cause !== null) e = e.cause as ErrorLike;
    else if (e.code === undefined && Array.isArray(e.errors) && typeof e.errors[0] === 'object')
      e = e.errors[0] as ErrorLike;
    else break;
  }
  return e;
}

const TLS = /^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|ERR_OSSL_)/;

type Kind = 'refused' | 'dns' | 'timeout' | 'reset' | 'tls' | 'unreachable' | 'bad_address' | 'failed';

function kindOf(e: ErrorLike, outer: ErrorLike): Kind {
  const code = e.code ?? '';
  if (outer.name === 'TimeoutError' || e.name === 'TimeoutError') return 'timeout';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL') return 'dns';
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT' || /^UND_ERR_(CONNECT|HEADERS|BODY)_TIMEOUT$/.test(code))
    return 'timeout';
  if (['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'].includes(code)) return 'reset';
  if (TLS.test(code) || code === 'EPROTO') return 'tls';
  if (['EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EADDRNOTAVAIL'].includes(code)) return 'unreachable';
  if (code === 'ERR_INVALID_URL' || code === 'UND_ERR_INVALID_ARG' || e.message === 'bad port') return 'bad_address';
  return 'failed';
}

/** host:port of what was called: the URL's when given (never its path or query, which may hold a key). */
function addressOf(e: ErrorLike, url?: string): string {
  if (url) {
    try {
      const u = new URL(url);
      return u.port ? `${u.hostname}:${u.port}` : u.hostname;
    } catch {
      // An address that does not parse: said by the `bad_address` sentence, without repeating it.
    }
  }
  if (e.address) return e.port ? `${e.address}:${e.port}` : e.address;
  return e.hostname ?? e.host ?? '';
}

/**
 * A network failure as a sentence and its technical detail; `url` (what was called) names the address.
 * Any thrown value works: an error that is not a network one reads "The request to ... failed".
 */
export function describeNetFailure(err: unknown, target: NetTarget, url?: string): NetFailure {
  const outer = (typeof err === 'object' && err !== null ? err : {}) as ErrorLike;
  const e = innermost(err);
  const kind = kindOf(e, outer);
  const address = addressOf(e, url) || '?';
  const what = serverText(targetCodes[target]);
  const code: ServerMessageCode = `net.${kind}`;
  const params: MessageParams =
    kind === 'dns' ? { target: what, host: e.hostname ?? address } : { target: what, address };
  // A URL's query may hold a key (Gemini's ?key=): never part of the detail.
  const raw = (e.message || outer.message || String(err)).replace(/\?[^\s)]*/g, '?…').replaceAll('`', '');
  const detail = e.code && !raw.includes(e.code) ? `${raw} (${e.code})` : raw;
  return { message: { code, params }, detail };
}

/** The failure as an AppError (its detail travels to the console; see errors.ts `technical`). */
export function netFailureError(code: ErrorCode, err: unknown, target: NetTarget, url?: string): AppError {
  const f = describeNetFailure(err, target, url);
  return new AppError(code, f.message.code, f.message.params, { technical: f.detail });
}

/** What went wrong, in a few words of each language, for sentences that must not name the address. */
const phrases: Record<Kind, { en: string; zh: string }> = {
  refused: { en: 'connection refused', zh: '连接被拒绝' },
  dns: { en: 'the host name was not found', zh: '找不到主机' },
  timeout: { en: 'no answer in time', zh: '响应超时' },
  reset: { en: 'the connection was closed unexpectedly', zh: '连接意外断开' },
  tls: { en: 'its certificate was not accepted', zh: '证书未通过验证' },
  unreachable: { en: 'the network cannot reach it', zh: '网络不可达' },
  bad_address: { en: 'its address is not valid', zh: '地址无效' },
  failed: { en: 'the request failed', zh: '请求失败' },
};

/**
 * The relay's words for a failed connection, to API callers and in error log rows: the reason and the
 * error's code ("connection refused (ECONNREFUSED)"), never the address, which would tell a
 * reseller's users where its channels point.
 */
export function netFailurePhrase(err: unknown): { en: string; zh: string } {
  const outer = (typeof err === 'object' && err !== null ? err : {}) as ErrorLike;
  const e = innermost(err);
  const p = phrases[kindOf(e, outer)];
  const code = e.code ?? (outer.name === 'TimeoutError' ? 'TimeoutError' : undefined);
  return code ? { en: `${p.en} (${code})`, zh: `${p.zh}（${code}）` } : p;
}
