/*
 * The one masking of upstream error text (issue 39): an upstream's 401 often quotes the key it was
 * sent ("Incorrect API key provided: sk-…"), and that text is stored and shown in many places (a
 * key's or a channel's auto-disable reason, channel test results, error log rows, the root's
 * notices, relay answers). Everything that keeps or passes on such text runs it through here first.
 * Shared so the console can mask reasons stored before this existed as it shows them.
 */

/** The longest reason kept (an upstream may answer with a whole HTML page). */
export const MAX_REASON = 1000;

const scrubbers: [RegExp, string][] = [
  [/\bBearer\s+[\w.~+/=-]+/gi, 'Bearer ***'],
  // OpenAI `sk-…`/`sk-proj-…`, Anthropic `sk-ant-…`, Stripe-style `pk-`/`rk-`.
  [/\b(sk|pk|rk)-[\w*.-]{6,}/g, '$1-***'],
  // Google API keys.
  [/\bAIza[\w-]{20,}/g, 'AIza***'],
  [/([?&;](?:key|api[_-]?key|access[_-]?token|token|secret|signature|sig)=)[^&\s"'#]+/gi, '$1***'],
  [/((?:x-api-key|x-goog-api-key|api[_-]key|authorization)["']?\s*[:=]\s*["']?(?:Bearer\s+)?)[^\s"',}]+/gi, '$1***'],
];

/**
 * `text` with secrets taken out: the given keys (and each part of a composite key such as
 * `ak|sk|region` or a JSON credential), `sk-…` style keys (`sk-ant-…` too), Bearer tokens, Google
 * `AIza…` keys, `key=`/`token=` query parameters and API-key headers; cut to `max` characters
 * (a stored JSON document is scrubbed whole with `max` Infinity: no pattern crosses a quote).
 */
export function scrubSecrets(text: string, keys: readonly string[] = [], max = MAX_REASON): string {
  let out = text;
  const parts = new Set<string>();
  for (const k of keys) {
    if (k.length >= 8) parts.add(k);
    for (const p of k.split(/[\s|,:;"{}]+/)) if (p.length >= 8) parts.add(p);
  }
  // Longest first, so a whole key goes before a part of it.
  for (const p of [...parts].sort((a, b) => b.length - a.length)) out = out.split(p).join('***');
  for (const [re, to] of scrubbers) out = out.replace(re, to);
  return out.length > max ? `${out.slice(0, max)}…` : out;
}

/** A stored message's (or any record's) string parameters scrubbed; numbers and amounts as they were. */
export function scrubParams<P extends Record<string, unknown>>(params: P, keys: readonly string[] = []): P {
  return Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? scrubSecrets(v, keys) : v]),
  ) as P;
}
