import { request } from 'undici';
import { channelTypeInfo } from '../../../shared/channel-types.ts';
import type { ChannelRow } from '../../db/types.ts';
import { splitKeys } from '../../relay/channel-config.ts';

/* Small HTTP helpers shared by the balance probe and the model fetch. Keys go in headers, never in messages. */

const TIMEOUT_MS = 30_000;

export const baseUrlOf = (c: Pick<ChannelRow, 'base_url' | 'type'>) =>
  (c.base_url || channelTypeInfo(c.type)?.baseUrl || '').replace(/\/+$/, '');

/** A multi-key channel's first key (split as the relay splits them): balance probes and model fetches use it. */
export const firstKeyOf = (key: string) => splitKeys(key)[0] ?? '';

/** GETs JSON; resolves with the status and parsed body (a text excerpt when not JSON). */
export async function upstreamJson(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const res = await request(url, {
    method: 'GET',
    headers: { accept: 'application/json', ...headers },
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

/** The upstream's own error text, from OpenAI, Anthropic, Gemini or plain shapes. */
export function upstreamErrorText(status: number, body: unknown): string {
  const b = body as { error?: { message?: string } | string; message?: string } | string | null;
  let text = '';
  if (typeof b === 'string') text = b;
  else if (b && typeof b.error === 'object' && b.error?.message) text = b.error.message;
  else if (b && typeof b.error === 'string') text = b.error;
  else if (b && typeof b.message === 'string') text = b.message;
  return `上游返回 HTTP ${status}${text ? `：${text}` : ''}`;
}

export const networkText = (err: unknown) => `请求上游失败：${err instanceof Error ? err.message : String(err)}`;
