import type { LogRow } from './logs.table.ts';

/** A log row as new-api sends it (api-contract §1 Log); the channel id sits under `channel`. */
export interface LogView {
  id: number;
  user_id: number;
  created_at: number;
  type: number;
  content: string;
  username: string;
  token_name: string;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  use_time: number;
  is_stream: boolean;
  channel: number;
  channel_name: string;
  token_id: number;
  group: string;
  client_ip: string;
  request_id: string;
  /** JSON text: ratios, cache tokens, frt, admin_info (admins only)... */
  other: string;
}

/** new-api replaces a user's own log ids by id % 1024 so they do not reveal the site's traffic. */
const SELF_ID_MODULUS = 1024;

function base(row: LogRow): LogView {
  return {
    id: Number(row.id),
    user_id: Number(row.user_id),
    created_at: Number(row.created_at),
    type: row.type,
    content: row.content,
    username: row.username,
    token_name: row.token_name,
    model_name: row.model_name,
    quota: Number(row.quota),
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    use_time: row.use_time,
    is_stream: row.is_stream === 1,
    channel: Number(row.channel_id),
    channel_name: '',
    token_id: Number(row.token_id),
    group: row.group,
    client_ip: row.ip,
    request_id: row.request_id,
    other: row.other,
  };
}

export function adminLogView(row: LogRow, channelNames: Map<number, string>): LogView {
  const view = base(row);
  view.channel_name = channelNames.get(view.channel) ?? '';
  return view;
}

/**
 * `admin_info` holds the retry chain (channel ids) and is hidden from users. An
 * `other` we cannot parse cannot be cleaned, so it is dropped rather than leaked.
 */
export function stripAdminInfo(other: string): string {
  if (other.trim() === '') return '';
  try {
    const parsed: unknown = JSON.parse(other);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return '';
    const { admin_info: _hidden, ...rest } = parsed as Record<string, unknown>;
    return JSON.stringify(rest);
  } catch {
    return '';
  }
}

export function selfLogView(row: LogRow): LogView {
  const view = base(row);
  view.id = view.id % SELF_ID_MODULUS;
  view.other = stripAdminInfo(view.other);
  return view;
}
