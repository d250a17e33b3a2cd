import type { Infra } from '../../context.ts';

const NOTIFY_TIMEOUT_MS = 5_000;

/**
 * Posts a task's new state to the client's notifyHook (MjNotifyEnabled). Fire and
 * forget: a slow or broken client hook must never delay polling or other tasks.
 * Only the host is logged, since hook URLs may carry the client's own secrets.
 */
export function postNotify(infra: Pick<Infra, 'log'>, hook: string, payload: unknown): void {
  let url: URL;
  try {
    url = new URL(hook);
  } catch {
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
    signal: AbortSignal.timeout(NOTIFY_TIMEOUT_MS),
  })
    .then((r) => r.body?.cancel())
    .catch((err: unknown) => infra.log.warn({ host: url.host, err: String(err) }, 'task notify hook failed'));
}
