import { createHmac } from 'node:crypto';
import { fetch } from 'undici';

/*
 * Outgoing user webhooks. The body is signed so the receiver can tell it came from
 * this gateway: X-Webhook-Signature = hex HMAC-SHA256(body, the user's webhook_secret).
 */

export interface WebhookPayload {
  type: string;
  title: string;
  content: string;
  values: string[];
  /** Unix seconds. */
  timestamp: number;
}

export const signWebhookBody = (body: string, secret: string) =>
  createHmac('sha256', secret).update(body).digest('hex');

const TIMEOUT_MS = 10_000;

/** Throws on a network error or a non-2xx answer (the caller logs it; nothing retries). */
export async function postWebhook(url: string, secret: string, payload: WebhookPayload): Promise<void> {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Switchyard-Webhook' };
  if (secret !== '') headers['x-webhook-signature'] = signWebhookBody(body, secret);
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body,
    signal: AbortSignal.timeout(TIMEOUT_MS),
    redirect: 'manual',
  });
  // Drain the answer so the connection is released.
  await res.arrayBuffer().catch(() => undefined);
  if (res.status < 200 || res.status >= 300) throw new Error(`webhook answered HTTP ${res.status}`);
}
