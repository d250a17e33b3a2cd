/*
 * A thoughtSignature the gateway makes for a functionCall it hands a Gemini client when the answer
 * came from another upstream (OpenAI, Anthropic...). It only holds the call's id: Gemini CLI keeps
 * and echoes thoughtSignature faithfully but may drop or remake functionCall ids, and the id is the
 * key under which the upstream's own reasoning signatures wait for the next turn (canonical/carry.ts).
 * It looks like any signature (base64) and is never sent to a Gemini upstream (a Gemini client on a
 * Gemini channel is relayed natively, and the door reads it back into the call id).
 */
const PREFIX = 'switchyard.call:';

export const gatewaySignature = (callId: string) => Buffer.from(PREFIX + callId, 'utf8').toString('base64');

/** The call id inside a gateway-made signature; undefined for any other signature (Google's). */
export function callIdOfSignature(signature: string | undefined): string | undefined {
  if (!signature || signature.length > 1024) return undefined;
  const text = Buffer.from(signature, 'base64').toString('utf8');
  return text.startsWith(PREFIX) && text.length > PREFIX.length ? text.slice(PREFIX.length) : undefined;
}
