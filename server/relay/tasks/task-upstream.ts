import { type ChannelConfig, pickKey } from '../channel-config.ts';
import { netFailurePhrase } from '../../net-failure.ts';
import { RelayError } from '../errors.ts';
import { sendUpstream } from '../upstream.ts';

const TASK_TIMEOUT_MS = 60_000;

export interface TaskUpstreamAnswer {
  status: number;
  json: unknown;
}

/** How each task platform presents the channel key (never logged). */
export type KeyStyle = 'mj' | 'bearer';

/**
 * One JSON call to a task upstream (submit, fetch, poll) over the relay's shared
 * connection pool. A network failure or a non-JSON answer becomes a 502 that
 * names the channel, never its key.
 */
export async function callTaskUpstream(
  ch: ChannelConfig,
  keyStyle: KeyStyle,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<TaskUpstreamAnswer> {
  const key = pickKey(ch);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (keyStyle === 'mj') headers['mj-api-secret'] = key;
  else headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await sendUpstream(
      {
        url: `${ch.baseUrl}${path}`,
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      AbortSignal.timeout(TASK_TIMEOUT_MS),
    );
  } catch (err) {
    const why = netFailurePhrase(err);
    throw new RelayError(
      502,
      `The request to channel #${ch.id} failed: ${why.en}`,
      'upstream_error',
      true,
      `渠道 #${ch.id} 请求失败：${why.zh}`,
    );
  }
  const text = await res.body.text();
  try {
    return { status: res.statusCode, json: text ? (JSON.parse(text) as unknown) : null };
  } catch {
    throw new RelayError(
      502,
      `Channel #${ch.id} answered with unreadable content (HTTP ${res.statusCode})`,
      'bad_response',
      true,
      `渠道 #${ch.id} 返回了无法解析的内容 (HTTP ${res.statusCode})`,
    );
  }
}
