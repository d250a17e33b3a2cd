import type { IncomingHttpHeaders } from 'node:http';

/** The refusal a strict fake answers instead of its normal answer: the provider's real status and error body. */
export interface StrictRefusal {
  status: number;
  body: unknown;
}

/**
 * Checks one request the way the real API does, before any answer is built. Pure: the same
 * request always gets the same verdict (signatures are checked against strict/signatures.ts).
 * `path` is the request URL as it arrived (with any query string).
 */
export type StrictValidator = (
  path: string,
  headers: IncomingHttpHeaders,
  body: Record<string, unknown>,
) => StrictRefusal | null;

/** The upstream dialects of the conformance suite. */
export type StrictDialect = 'openai' | 'openai-chat-only' | 'anthropic' | 'gemini';

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
