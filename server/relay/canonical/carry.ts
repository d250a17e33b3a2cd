import type { KeyValueStore } from '../../cache/kv.ts';
import type { ReasoningDetail, ThinkingBlock } from './types.ts';

/*
 * What a provider needs back on the next turn that a client of another dialect cannot echo:
 * Anthropic's signed thinking blocks and Gemini's thoughtSignature must accompany the tool call
 * they preceded, or the upstream refuses turn 2 of a tool loop; OpenRouter continues a model's
 * reasoning from the `reasoning_details` it returned (and Gemini behind it refuses a call without
 * them). Every client echoes tool-call ids faithfully, so that is the key: the provider's
 * converter remembers what came with each call it returned, and the provider's request builder
 * looks the calls up when they come back. Entries live in the shared kv store (Redis with several
 * instances), scoped to the user, for a day.
 */

export interface TurnCarry {
  /** The Anthropic thinking blocks that opened the assistant turn this call belongs to. */
  thinking_blocks?: ThinkingBlock[];
  /** Gemini's signature on this functionCall part. */
  thought_signature?: string;
  /** The `reasoning_details` of the OpenAI-compatible answer this call came in (whole items, merged). */
  reasoning_details?: ReasoningDetail[];
}

export interface CarryStore {
  /** Remembers what goes back with this call (fire and forget: the answer never waits for it). */
  remember(callId: string, carry: TurnCarry): void;
  /** What was remembered for these calls (absent ids are left out). */
  recall(callIds: readonly string[]): Promise<Map<string, TurnCarry>>;
}

export const CARRY_TTL_MS = 24 * 60 * 60 * 1000;

export function createCarryStore(kv: KeyValueStore, userId: number): CarryStore {
  const key = (id: string) => `carry:${userId}:${id}`;
  return {
    remember(callId, carry) {
      if (!callId) return;
      void kv.set(key(callId), JSON.stringify(carry), CARRY_TTL_MS).catch(() => undefined);
    },
    async recall(callIds) {
      const out = new Map<string, TurnCarry>();
      const ids = [...new Set(callIds.filter(Boolean))];
      const values = await Promise.all(ids.map((id) => kv.get(key(id)).catch(() => undefined)));
      ids.forEach((id, i) => {
        const v = values[i];
        if (!v) return;
        try {
          out.set(id, JSON.parse(v) as TurnCarry);
        } catch {
          // A corrupt entry is as good as none.
        }
      });
      return out;
    },
  };
}

/** For requests no client turn follows (the admin's channel test). */
export const noCarry: CarryStore = { remember: () => undefined, recall: async () => new Map() };
