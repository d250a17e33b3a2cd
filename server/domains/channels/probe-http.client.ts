import { request } from 'undici';
import { channelTypeInfo } from '../../../shared/channel-types.ts';
import type { ServerMessage } from '../../../shared/server-messages.ts';
import type { ChannelRow } from './channels.table.ts';
import { splitKeys } from '../../relay/channel-config.ts';
import type { ChannelQuery } from '../../relay/providers/shared/channel-query.ts';
import type { UpstreamRequest } from '../../relay/providers/types.ts';

/*
 * The HTTP side of the balance probe and the model fetch: the provider folders say which
 * GETs to send and how to read the answers (ChannelQuery); this sends them. Keys go in
 * headers or URLs, never in messages.
 */

const TIMEOUT_MS = 30_000;

export const baseUrlOf = (c: Pick<ChannelRow, 'base_url' | 'type'>) =>
  (c.base_url || channelTypeInfo(c.type)?.baseUrl || '').replace(/\/+$/, '');

/** A multi-key channel's first key (split as the relay splits them): balance probes and model fetches use it. */
export const firstKeyOf = (key: string) => splitKeys(key)[0] ?? '';

/** Sends one GET; resolves with the status and parsed body (a text excerpt when not JSON). */
export async function upstreamJson(req: UpstreamRequest): Promise<{ status: number; body: unknown }> {
  const res = await request(req.url, {
    method: 'GET',
    headers: { accept: 'application/json', ...req.headers },
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  const text = await res.body.text();
  try {
    return { status: res.statusCode, body: JSON.parse(text) as unknown };
  } catch {
    // Not JSON (an HTML error page, a proxy's text): keep a short excerpt for the message.
    return { status: res.statusCode, body: text.slice(0, 300) };
  }
}

/**
 * Runs a provider's query: its GETs one after the other through `send` (which throws the
 * caller's own error for a failed one, so the next is never sent), then the provider reads the bodies.
 */
export async function runQuery<T>(
  query: ChannelQuery<T>,
  baseUrl: string,
  key: string,
  send: (req: UpstreamRequest) => Promise<unknown>,
  other = '',
): Promise<T> {
  const bodies: unknown[] = [];
  for (const req of query.requests(baseUrl, key, other)) bodies.push(await send(req));
  return query.read(bodies);
}

/** The upstream's own error text, from OpenAI, Anthropic, Gemini or plain shapes. */
export function upstreamErrorText(status: number, body: unknown): ServerMessage {
  const b = body as { error?: { message?: string } | string; message?: string } | string | null;
  let text = '';
  if (typeof b === 'string') text = b;
  else if (b && typeof b.error === 'object' && b.error?.message) text = b.error.message;
  else if (b && typeof b.error === 'string') text = b.error;
  else if (b && typeof b.message === 'string') text = b.message;
  return text
    ? { code: 'channel.upstream_status_detail', params: { status, detail: text } }
    : { code: 'channel.upstream_status', params: { status } };
}
