import type { KeyValueStore } from '../../../cache/kv.ts';
import type { CanonicalMessage } from '../../canonical/types.ts';
import { refusal } from '../../errors.ts';

/*
 * previous_response_id on a converted path (docs/conversion.md § Responses): OpenAI keeps every
 * response it answers (store defaults to true) and a later request may continue from one by id.
 * A channel that does not speak Responses keeps nothing, so the gateway does: each converted
 * answer with `store` not false is kept as the whole conversation up to it (history, input,
 * output; `instructions` are not carried over, as on OpenAI), in the shared kv store (memory, or
 * Redis with several instances), scoped to the paying user, for 24 hours. One read restores a
 * conversation; an id older than a day, or another user's, is not found.
 */

export const RESPONSE_TTL_MS = 24 * 60 * 60 * 1000;

const key = (userId: number, id: string) => `resp:${userId}:${id}`;

interface StoredTurn {
  messages: CanonicalMessage[];
}

/** The conversation a stored response ended, or undefined when this gateway has none under that id. */
export async function loadConversation(
  kv: KeyValueStore,
  userId: number,
  id: string,
): Promise<CanonicalMessage[] | undefined> {
  const v = await kv.get(key(userId, id)).catch(() => undefined);
  if (!v) return undefined;
  try {
    return (JSON.parse(v) as StoredTurn).messages;
  } catch {
    return undefined;
  }
}

/** Keeps a conversation under the response's id (fire and forget: the answer never waits for it). */
export function saveConversation(kv: KeyValueStore, userId: number, id: string, messages: CanonicalMessage[]): void {
  const turn: StoredTurn = { messages };
  void kv.set(key(userId, id), JSON.stringify(turn), RESPONSE_TTL_MS).catch(() => undefined);
}

/** OpenAI's answer to an id it does not know, worded for a gateway. */
export const previousResponseNotFound = (id: string) =>
  refusal(
    400,
    `Previous response with id '${id}' not found. This gateway keeps responses it converted for 24 hours (unless sent with store: false); send the conversation in input instead.`,
    `未找到 id 为 '${id}' 的上一条回复。本网关只保存经转换的回复 24 小时（store: false 的不保存）；请改为在 input 中发送完整对话。`,
    'previous_response_not_found',
  );
