import { createHash, type Hash } from 'node:crypto';
import { fakePromptTokens } from './behaviour.ts';
import { fakeNativePrompt } from './native-http.ts';

/*
 * What one fake upstream remembers per API key, for the tokens (in the model name or the key):
 * - `prompt-cache`: automatic prefix caching as OpenAI does it (and Gemini's implicit caching): a
 *   request reads the longest prefix of its prompt that an earlier request with the same API key and
 *   model sent, whole messages at a time, counted in the fake's own token units (what its usage reports);
 *   the answer reports it as OpenAI's `prompt_tokens_details.cached_tokens` or Gemini's
 *   `cachedContentTokenCount`. Caches are per key, as the real ones are per account: the turns of one
 *   session spread over keys read little. No minimum length and no expiry (tests are short).
 *   (The Anthropic fake models breakpoints instead: anthropic-cache.ts.)
 * - `fail-after-<n>`: the key answers n requests, then every later one gets a 429, as a key whose
 *   rate limit or credit ran out mid-session.
 */

type Json = Record<string, unknown>;

/** One step of a prompt: what identifies it, and the tokens it adds to the fake's count. */
interface Unit {
  id: string;
  tokens: number;
}

const parts = (model: string, key: string) => `${model}+${key}`.split('+');

/** OpenAI chat: the tools (no tokens in the fake's count), then each message (3 + a token per 4 characters). */
export function chatUnits(body: Json): Unit[] {
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  return [
    { id: JSON.stringify(body.tools ?? null), tokens: 0 },
    ...messages.map((m) => ({ id: JSON.stringify(m), tokens: fakePromptTokens({ messages: [m] }) - 3 })),
  ];
}

/** Gemini: system instruction and tools, then each content, in fakeNativePrompt's units. */
export function geminiUnits(body: Json): Unit[] {
  const contents = Array.isArray(body.contents) ? (body.contents as Json[]) : [];
  return [
    {
      id: JSON.stringify([body.systemInstruction ?? null, body.tools ?? null]),
      tokens: fakeNativePrompt([], body.systemInstruction) - 3,
    },
    ...contents.map((c) => ({ id: JSON.stringify(c), tokens: fakeNativePrompt([c], undefined) - 3 })),
  ];
}

export function createKeyMemory() {
  const prefixes = new Set<string>();
  const answered = new Map<string, number>();
  return {
    /** For `fail-after-<n>`: whether this key has used up its n answers (counts this request). */
    exhausted(model: string, key: string): boolean {
      const n = parts(model, key)
        .map((p) => /^fail-after-(\d+)$/.exec(p))
        .find(Boolean);
      if (!n) return false;
      const count = (answered.get(key) ?? 0) + 1;
      answered.set(key, count);
      return count > Number(n[1]);
    },
    /**
     * For `prompt-cache`: the cached tokens of this prompt (at most `total`), undefined without the
     * token; every prefix of the prompt is remembered for the key's later requests.
     */
    cachedTokens(model: string, key: string, units: Unit[], total: number): number | undefined {
      if (!parts(model, key).includes('prompt-cache')) return undefined;
      const hash: Hash = createHash('sha256').update(`${key}\u0000${model}`);
      let cached = 0;
      let reading = true;
      for (const u of units) {
        hash.update(`\u0001${u.id}`);
        const id = hash.copy().digest('hex');
        if (reading && prefixes.has(id)) cached += u.tokens;
        else reading = false;
        prefixes.add(id);
      }
      return Math.min(cached, total);
    },
  };
}

export type KeyMemory = ReturnType<typeof createKeyMemory>;
