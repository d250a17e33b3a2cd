import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/*
 * Which agent session a relayed request belongs to (docs/configuration.md § Session affinity), read from what
 * the clients already send, as recorded from the real clients (issue 29):
 * - `X-Session-Id`: the explicit header for any client (OpenCode 1.18 sends it too).
 * - `prompt_cache_key` in a chat or Responses body (Codex 0.171 sets it to its session id).
 * - Codex's headers: `session-id` (0.171; `thread-id` alongside), `session_id` / `conversation_id` (older).
 * - Claude Code: `X-Claude-Code-Session-Id` (2.1), and the session part of `metadata.user_id`: a JSON
 *   string `{"device_id":…,"account_uuid":…,"session_id":…}` in 2.1.197, `user_<hash>_account_<uuid>_session_<uuid>` before.
 * - OpenCode: `X-Session-Affinity` (1.18, with `X-Session-Id`).
 * - Qwen Code: `metadata.sessionId` (sent to DashScope addresses only).
 * Gemini CLI (0.61, API-key mode) sends none; such requests fall back on a hash of the token and the
 * prompt's stable prefix: the system prompt, the tool names and the first user message, once the prompt
 * is long enough for a provider to cache it (a short one-off request is routed as before: identical
 * small requests of one token keep spreading over keys and channels).
 */

/** Headers naming a session, first match wins (Node gives header names in lower case). */
const SESSION_HEADERS = [
  'x-session-id',
  'session-id',
  'session_id',
  'conversation_id',
  'conversation-id',
  'x-claude-code-session-id',
  'x-session-affinity',
] as const;

/** Longer values are hashed all the same; this only bounds the work on a hostile header. */
const MAX_ID = 512;
/** Characters of each prefix part hashed by the fallback (a first message may hold a whole file or image). */
const MAX_PART = 32_768;
/**
 * Providers cache prompts of 1,024 tokens and more (OpenAI; Anthropic and Gemini ask 1,024 to 4,096 by
 * model), about 4 characters a token: a shorter prompt gains nothing from a pin.
 */
const MIN_CACHEABLE_CHARS = 4096;
/** What a tool's schema or an image or file part is counted as (their JSON is not measured). */
const PART_CHARS = 256;

/** A session as the affinity key uses it: `explicit` ids are scoped to the user, `prefix` hashes to the token. */
export interface SessionHint {
  kind: 'explicit' | 'prefix';
  /** A hex digest: the id itself never reaches the store. */
  digest: string;
}

const digestOf = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32);

const clean = (v: unknown): string | undefined => {
  if (typeof v !== 'string') return undefined;
  const s = v.trim();
  return s === '' ? undefined : s.slice(0, MAX_ID);
};

/** The session part of Claude Code's `metadata.user_id` (both its forms), else undefined. */
export function claudeCodeSession(userId: unknown): string | undefined {
  const v = clean(userId);
  if (!v) return undefined;
  if (v.startsWith('{')) {
    try {
      return clean((JSON.parse(v) as { session_id?: unknown }).session_id);
    } catch {
      return undefined;
    }
  }
  return /_session_([0-9a-zA-Z-]{8,})$/.exec(v)?.[1];
}

/** A session id the client sent, in header or body, else undefined. */
export function clientSessionId(headers: IncomingHttpHeaders, body: unknown): string | undefined {
  const explicit = clean(headers['x-session-id']);
  if (explicit) return explicit;
  const b = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const key = clean(b.prompt_cache_key);
  if (key) return key;
  for (const h of SESSION_HEADERS) {
    const v = clean(headers[h]);
    if (v) return v;
  }
  const meta = b.metadata && typeof b.metadata === 'object' ? (b.metadata as Record<string, unknown>) : {};
  return claudeCodeSession(meta.user_id) ?? clean(meta.sessionId) ?? clean(meta.session_id);
}

/** The text of a message content (string or parts), images and files by their first characters only. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content.slice(0, MAX_PART);
  if (!Array.isArray(content)) return '';
  let out = '';
  for (const p of content as Record<string, unknown>[]) {
    if (out.length >= MAX_PART) break;
    if (typeof p?.text === 'string') out += p.text;
    // An image or file by its first characters: its base64 data may be megabytes.
    else if (p && typeof p === 'object')
      out += JSON.stringify(p, (_k, v: unknown) => (typeof v === 'string' ? v.slice(0, 256) : v));
  }
  return out.slice(0, MAX_PART);
}

/** Characters of a content, roughly: text lengths, other parts at PART_CHARS. */
function lengthOf(content: unknown): number {
  if (typeof content === 'string') return content.length;
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const p of content as { text?: unknown }[]) n += typeof p?.text === 'string' ? p.text.length : PART_CHARS;
  return n;
}

/** Whether the prompt is long enough to be cached upstream (counted until it is). */
function cacheable(body: Record<string, unknown>, messages: { content?: unknown }[]): boolean {
  let n = (Array.isArray(body.tools) ? body.tools.length * PART_CHARS : 0) + lengthOf(body.prompt);
  for (const m of messages) {
    if (n >= MIN_CACHEABLE_CHARS) return true;
    n += lengthOf(m.content);
  }
  return n >= MIN_CACHEABLE_CHARS;
}

/**
 * The fallback: what stays the same in every turn of one conversation, read from the canonical (chat)
 * body: system and developer messages, the tool names (their schemas rarely change and are long) and
 * the first user message (a legacy completion's prompt). Undefined when there is nothing to go by or
 * the prompt is too short to be cached.
 */
export function stablePrefixDigest(body: Record<string, unknown>, tokenScope: string): string | undefined {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: string; content?: unknown }[]) : [];
  if (!cacheable(body, messages)) return undefined;
  const system = messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map((m) => textOf(m.content))
    .join('\n');
  const firstUser = messages.find((m) => m.role === 'user');
  const first = firstUser ? textOf(firstUser.content) : textOf(body.prompt);
  if (first === '' && system === '') return undefined;
  const tools = Array.isArray(body.tools)
    ? (body.tools as { function?: { name?: unknown }; name?: unknown }[])
        .map((t) => String(t.function?.name ?? t.name ?? ''))
        .join(',')
    : '';
  return digestOf('prefix', tokenScope, system, tools, first);
}

/** The request's session: the client's own id when it sent one, else its stable prefix; undefined when neither. */
export function sessionHintOf(
  headers: IncomingHttpHeaders,
  clientBody: unknown,
  canonical: Record<string, unknown>,
  tokenScope: string,
): SessionHint | undefined {
  const id = clientSessionId(headers, clientBody);
  if (id) return { kind: 'explicit', digest: digestOf('id', id) };
  const digest = stablePrefixDigest(canonical, tokenScope);
  return digest ? { kind: 'prefix', digest } : undefined;
}
