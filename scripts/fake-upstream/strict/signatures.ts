/*
 * Signatures the fakes issue and the strict validators check, standing in for Anthropic's thinking
 * `signature` and Gemini's `thoughtSignature`. Like the real ones they are opaque base64 and only
 * the issuer can tell a genuine one: an HMAC under a key only the fakes know. A gateway that drops,
 * rewrites or moves a signature (or edits the signed thinking text) then gets the real 400.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const KEY = 'switchyard-fake-upstream-signatures';

const mac = (purpose: string, payload: string) => createHmac('sha256', KEY).update(`${purpose}\n${payload}`).digest();

/** Anthropic: the `signature` of a thinking block, bound to its exact text. */
export function signThinking(thinking: string): string {
  return Buffer.concat([Buffer.from('ThnkSig1'), mac('thinking', thinking)]).toString('base64');
}

export function isIssuedThinkingSignature(signature: unknown, thinking: unknown): boolean {
  return typeof signature === 'string' && typeof thinking === 'string' && sameBase64(signature, signThinking(thinking));
}

/** Anthropic: the opaque `data` of a redacted_thinking block (a seed the fake chose, sealed). */
export function redactedThinkingData(seed = 'redacted'): string {
  return Buffer.concat([mac('redacted', seed), Buffer.from(seed)]).toString('base64');
}

export function isIssuedRedactedData(data: unknown): boolean {
  if (typeof data !== 'string') return false;
  const raw = Buffer.from(data, 'base64');
  if (raw.length <= 32) return false;
  return timingSafeEqual(raw.subarray(0, 32), mac('redacted', raw.subarray(32).toString()));
}

/** Gemini's documented placeholder that turns signature validation off for one functionCall part. */
export const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/** Gemini: the `thoughtSignature` of a functionCall part, bound to the function's name. */
export function thoughtSignatureFor(functionName: string): string {
  return Buffer.concat([Buffer.from('GemSig01'), mac('gemini-call', functionName)]).toString('base64');
}

export function isIssuedThoughtSignature(signature: unknown, functionName: unknown): boolean {
  if (signature === SKIP_THOUGHT_SIGNATURE) return true;
  return (
    typeof signature === 'string' &&
    typeof functionName === 'string' &&
    sameBase64(signature, thoughtSignatureFor(functionName))
  );
}

/** Gemini 3 models check thought signatures on function calls (2.5 models do not). */
export const isGeminiThinkingSignatureModel = (model: string) => /^gemini-3/i.test(model.split('+')[0]);

function sameBase64(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
