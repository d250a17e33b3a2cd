/**
 * Per-request behaviour of the fake upstream, chosen by the model name (and the
 * API key, so a whole channel can be "dead"): tokens joined with `+`, e.g.
 * `gpt-4o+slow-200+no-usage`. Known tokens:
 * fail-<status> (fail-429 sends Retry-After), fail-401-invalid-key (OpenAI's body), leak-key (with it, the 401
 * quotes the whole key, as OpenAI once did and many resellers still do; the model list answers it too),
 * fail-quota (OpenAI's 429 insufficient_quota: the account is out of credit),
 * reset-before, reset-mid-stream, slow-<ms>, drip, hang, no-done, no-usage, cache-<n>,
 * chunks-<n> (content chunks, the completion token count), gap-<ms> (delay between stream chunks),
 * reasoning-<n> (n `reasoning_content` pieces before the content, as DeepSeek sends them; counted as
 * completion tokens), or-reasoning-<n> (the same under the name `reasoning`, as vLLM and OpenRouter
 * send it), details-reasoning-<n> (OpenRouter's whole shape: `reasoning` and `reasoning_details`
 * together, see reasoningFields).
 */
export interface Behaviour {
  failStatus?: number;
  invalidKey: boolean;
  /** The invalid-key answer quotes the key it was sent. */
  leakKey: boolean;
  quotaExceeded: boolean;
  resetBefore: boolean;
  resetMidStream: boolean;
  slowMs: number;
  drip: boolean;
  hang: boolean;
  noDone: boolean;
  noUsage: boolean;
  cachedTokens: number;
  chunks?: number;
  gapMs?: number;
  /** Reasoning pieces sent before the content, and the field that carries them. */
  reasoning: number;
  reasoningField: ReasoningSpelling;
}

/** The answer field(s) reasoning text comes in: `details` is OpenRouter's `reasoning` + `reasoning_details`. */
export type ReasoningSpelling = 'reasoning_content' | 'reasoning' | 'details';

export function parseBehaviour(model: string, key: string): Behaviour {
  const parts = `${model}+${key}`.split('+');
  const b: Behaviour = {
    invalidKey: false,
    leakKey: false,
    quotaExceeded: false,
    resetBefore: false,
    resetMidStream: false,
    slowMs: 0,
    drip: false,
    hang: false,
    noDone: false,
    noUsage: false,
    cachedTokens: 0,
    reasoning: 0,
    reasoningField: 'reasoning_content',
  };
  for (const p of parts) {
    let m: RegExpMatchArray | null;
    if (p.includes('fail-401-invalid-key')) b.invalidKey = true;
    else if (p === 'fail-quota') b.quotaExceeded = true;
    else if (p === 'leak-key') b.leakKey = true;
    else if ((m = p.match(/fail-(\d{3})/))) b.failStatus = Number(m[1]);
    else if (p === 'reset-before') b.resetBefore = true;
    else if (p === 'reset-mid-stream') b.resetMidStream = true;
    else if ((m = p.match(/^slow-(\d+)$/))) b.slowMs = Number(m[1]);
    else if (p === 'drip') b.drip = true;
    else if (p === 'hang') b.hang = true;
    else if (p === 'no-done') b.noDone = true;
    else if (p === 'no-usage') b.noUsage = true;
    else if ((m = p.match(/^cache-(\d+)$/))) b.cachedTokens = Number(m[1]);
    else if ((m = p.match(/^chunks-(\d+)$/))) b.chunks = Number(m[1]);
    else if ((m = p.match(/^gap-(\d+)$/))) b.gapMs = Number(m[1]);
    else if ((m = p.match(/^(or-|details-)?reasoning-(\d+)$/))) {
      b.reasoning = Number(m[2]);
      b.reasoningField = m[1] === 'or-' ? 'reasoning' : m[1] === 'details-' ? 'details' : 'reasoning_content';
    }
  }
  return b;
}

/*
 * OpenRouter's `reasoning_details` as it answers for a Claude model: the thinking text as
 * `reasoning.text` items (the signature on the block's last piece) and a redacted block as an
 * opaque `reasoning.encrypted` item, each with its block `index`; the plain text also as `reasoning`.
 * Streamed, every reasoning delta carries both spellings of its piece; the signature and the
 * encrypted item come in deltas of their own with no `reasoning` text.
 */
export const FAKE_REASONING_SIGNATURE = 'or-sig-fake';
export const FAKE_REASONING_ENCRYPTED = 'or-encrypted-fake';
const DETAIL_FORMAT = 'anthropic-claude-v1';
const encryptedDetail = {
  type: 'reasoning.encrypted',
  data: FAKE_REASONING_ENCRYPTED,
  format: DETAIL_FORMAT,
  index: 1,
};

/** The reasoning fields of a whole (JSON) answer whose reasoning is `text`. */
export function reasoningFields(spelling: ReasoningSpelling, text: string): Record<string, unknown> {
  if (text === '') return {};
  if (spelling !== 'details') return { [spelling]: text };
  const textDetail = {
    type: 'reasoning.text',
    text,
    signature: FAKE_REASONING_SIGNATURE,
    format: DETAIL_FORMAT,
    index: 0,
  };
  return { reasoning: text, reasoning_details: [textDetail, encryptedDetail] };
}

/** The reasoning deltas of a streamed answer whose reasoning comes in `pieces`, in order. */
export function reasoningDeltas(spelling: ReasoningSpelling, pieces: string[]): Record<string, unknown>[] {
  if (spelling !== 'details') return pieces.map((t) => ({ [spelling]: t }));
  if (pieces.length === 0) return [];
  const detail = (extra: object) => ({ type: 'reasoning.text', format: DETAIL_FORMAT, index: 0, ...extra });
  return [
    ...pieces.map((t) => ({ reasoning: t, reasoning_details: [detail({ text: t })] })),
    { reasoning_details: [detail({ text: '', signature: FAKE_REASONING_SIGNATURE })] },
    { reasoning_details: [encryptedDetail] },
  ];
}

/** `n`: how many choices an OpenAI-style request asks for (1 when absent, as OpenAI defaults). */
export const choiceCount = (body: Record<string, unknown>) =>
  typeof body.n === 'number' && Number.isInteger(body.n) && body.n > 1 ? body.n : 1;

/** Choice i > 0 answers the same in upper case (W0 W1 ...), so tests can tell the choices apart. */
export const candidateText = (text: string, index: number) => (index === 0 ? text : text.toUpperCase());

/** OpenAI's real answer to a bad key. */
export const invalidKeyBody = {
  error: {
    message:
      'Incorrect API key provided: sk-proj-****. You can find your API key at https://platform.openai.com/account/api-keys.',
    type: 'invalid_request_error',
    param: null,
    code: 'invalid_api_key',
  },
};

/** A reseller's answer to a bad key: OpenAI's, with the whole key quoted (`leak-key`). */
export const leakedKeyBody = (key: string) => ({
  error: {
    message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com/account/api-keys.`,
    type: 'invalid_request_error',
    param: null,
    code: 'invalid_api_key',
  },
});

/** OpenAI's real answer (HTTP 429) when the account behind a key has no credit left. */
export const insufficientQuotaBody = {
  error: {
    message:
      'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
    type: 'insufficient_quota',
    param: null,
    code: 'insufficient_quota',
  },
};

export function failureBody(status: number) {
  if (status === 429)
    return {
      error: {
        message: 'Rate limit reached for requests. Please try again in 1s.',
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    };
  return {
    error: { message: `The fake upstream failed with ${status}.`, type: 'server_error', param: null, code: null },
  };
}

/** A deterministic prompt count: about 4 characters a token, 3 per message, 3 for the reply primer. */
export function fakePromptTokens(body: Record<string, unknown>): number {
  const text = (v: unknown): string =>
    typeof v === 'string'
      ? v
      : Array.isArray(v)
        ? v.map((x: { text?: string } | string) => (typeof x === 'string' ? x : (x?.text ?? ''))).join('')
        : '';
  if (Array.isArray(body.messages))
    return (body.messages as { content?: unknown }[]).reduce(
      (n, m) => n + 3 + Math.ceil(text(m.content).length / 4),
      3,
    );
  return Math.ceil(text(body.prompt ?? body.input).length / 4);
}
