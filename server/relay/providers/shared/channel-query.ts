import { channelTypeInfo } from '../../../../shared/channel-types.ts';
import type { UpstreamRequest } from '../types.ts';

/**
 * A question the admin asks a channel's upstream outside the relay (the channels domain's
 * update_balance and fetch_models). The provider knows the GETs and how to read their
 * answers; the caller sends them one after the other, stops at the first failure and words
 * it, so a provider folder holds no HTTP client and no error text of the console's.
 */
export interface ChannelQuery<T> {
  /**
   * The GETs for the channel's base URL (no trailing slash) and key, in the order they are sent;
   * `other` is the channel's `other` setting (Cloudflare's account id), '' when unset.
   */
  requests(baseUrl: string, key: string, other?: string): UpstreamRequest[];
  /** The answer from the 2xx bodies (parsed JSON, or a text excerpt), in the order of `requests`. */
  read(bodies: unknown[]): T;
}

/** For providers with no model-list endpoint: fetch_models offers the type's default models, asking nothing. */
export const defaultModelsQuery = (type: number): ChannelQuery<string[]> => ({
  requests: () => [],
  read: () => [...(channelTypeInfo(type)?.defaultModels ?? [])],
});

/** A GET with the key as a bearer token, the way OpenAI-style APIs take it. */
export const bearerGet = (url: string, key: string): UpstreamRequest => ({
  url,
  method: 'GET',
  headers: { authorization: `Bearer ${key}` },
});

/** A JSON number or numeric string as a number; NaN for anything else (the caller refuses NaN balances). */
export const numberOf = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN);
