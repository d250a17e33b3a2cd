import { splitChannelKeys } from '../../../shared/channel-info.ts';
import { scrubParams, scrubSecrets } from '../../../shared/scrub-secrets.ts';
import { type ServerMessage, serverText } from '../../../shared/server-messages.ts';
import type { StoredMessage } from '../../../shared/stored-message.ts';
import type { ChannelRow } from './channels.table.ts';
import { AppError, badRequest, type ErrorCode } from '../../errors.ts';
import { balanceQueryFor, modelsQueryFor } from '../../relay/providers/index.ts';
import type { UpstreamRequest } from '../../relay/providers/types.ts';
import { netFailureError } from '../../net-failure.ts';
import { baseUrlOf, firstKeyOf, runQuery, upstreamErrorText, upstreamJson } from './probe-http.client.ts';

/**
 * The channel service's only way to talk to an upstream for tests, balances and model lists.
 * Tests run through the relay's provider adapters (relay.md §4), handed in by services.ts as
 * `test`; balances and model lists are the provider folders' queries (ChannelQuery), sent here.
 * The service neither knows nor cares how.
 */
export interface ChannelProbe {
  /**
   * Sends one minimal request with `model`; never throws for an upstream failure (AppError when
   * untestable). `signal` (shutdown) abandons the request. `key`: that key of a multi-key channel
   * (an auto-disabled one being re-tested); else one of its enabled keys.
   */
  test(channel: ChannelRow, model: string, signal?: AbortSignal, key?: string): Promise<ProbeResult>;
  /** The channel's remaining balance in USD; throws AppError when unsupported or failing. */
  balance(channel: ChannelRow): Promise<number>;
  /** The upstream's model ids for a channel type, base URL, key and `other`; throws AppError (500) when failing. */
  models(type: number, baseUrl: string, key: string, other?: string): Promise<string[]>;
}

export interface ProbeResult {
  ok: boolean;
  timeMs: number;
  /** The upstream's error text on failure ("" on success); never contains the key. */
  message: string;
  /** `message` as its registry code and parameters, so the console can word it in its language. */
  reason?: StoredMessage;
  /**
   * Technical text behind a network failure ("connect ECONNREFUSED 127.0.0.1:9999"), untranslated,
   * for the console's "details" disclosure; absent otherwise. REST answers it as top-level `detail`.
   */
  detail?: string;
}

/** One balance GET: a 2xx JSON object, else 503 with the upstream's words. */
async function balanceAnswer(req: UpstreamRequest): Promise<Record<string, unknown>> {
  let res;
  try {
    res = await upstreamJson(req);
  } catch (err) {
    throw netFailureError('SERVICE_UNAVAILABLE', err, 'upstream', req.url);
  }
  if (res.status < 200 || res.status >= 300 || typeof res.body !== 'object' || res.body === null)
    throw messageError('SERVICE_UNAVAILABLE', upstreamErrorText(res.status, res.body));
  return res.body as Record<string, unknown>;
}

/**
 * Model-list failures are the upstream's, so 502 (new-api answers 500, which reads as our own bug
 * and logged a stack); the reason is a registry text the console translates as a parameter.
 */
const modelListFailure = (reason: ServerMessage) =>
  new AppError('BAD_GATEWAY', 'channel.models_failed', { reason: serverText(reason.code, reason.params) });

const messageError = (code: ErrorCode, m: ServerMessage) => new AppError(code, m.code, m.params);

/** One model-list GET: any 2xx body. */
async function modelListAnswer(req: UpstreamRequest): Promise<unknown> {
  let res;
  try {
    res = await upstreamJson(req);
  } catch (err) {
    // The sentence alone ("Cannot connect to the upstream: ..."): the admin knows what they asked for.
    throw netFailureError('BAD_GATEWAY', err, 'upstream', req.url);
  }
  if (res.status < 200 || res.status >= 300) throw modelListFailure(upstreamErrorText(res.status, res.body));
  return res.body;
}

/**
 * Runs a balance or model-list query with its failure's words freed of the key (issue 39): the admin
 * sees the upstream's text, and a 401's text may quote the key it was sent.
 */
async function withoutKey<T>(key: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const keys = [key, ...splitChannelKeys(key)];
    throw new AppError(err.code, err.messageCode, scrubParams(err.params, keys), {
      detail: err.detail === undefined ? undefined : scrubSecrets(err.detail, keys),
      technical: err.technical === undefined ? undefined : scrubSecrets(err.technical, keys),
      realStatus: err.realStatus,
      restCode: err.restCode,
    });
  }
}

/** The probe: `test` as given; balances and model lists from the provider's endpoints over plain HTTP. */
export function createChannelProbe(test: ChannelProbe['test']): ChannelProbe {
  return {
    test,
    async balance(channel) {
      const query = balanceQueryFor(channel.type);
      if (!query) throw badRequest('channel.balance_unsupported');
      const value = await withoutKey(channel.key, () =>
        runQuery(query, baseUrlOf(channel), firstKeyOf(channel.key), balanceAnswer),
      );
      if (!Number.isFinite(value)) throw new AppError('SERVICE_UNAVAILABLE', 'channel.balance_unreadable');
      return Math.round(value * 1e6) / 1e6;
    },
    async models(type, baseUrl, key, other) {
      const ids = await withoutKey(key, () => runQuery(modelsQueryFor(type), baseUrl, key, modelListAnswer, other));
      return [...new Set(ids.filter(Boolean))];
    },
  };
}
