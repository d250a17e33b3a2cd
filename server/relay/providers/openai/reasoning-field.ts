/*
 * OpenAI-compatible vendors name an answer's reasoning text differently: DeepSeek and most others
 * `reasoning_content` (the internal form's name), OpenRouter and vLLM-based vendors `reasoning`,
 * OpenRouter also `reasoning_details` (typed entries, some only summaries). For a client of
 * another dialect (the Anthropic and Gemini doors read `reasoning_content` into thinking blocks)
 * the text is moved to `reasoning_content`. OpenAI chat clients get the vendor's answer as it came.
 */

interface Reasoned {
  reasoning_content?: unknown;
  reasoning?: unknown;
  reasoning_details?: unknown;
}

type Detail = { type?: unknown; text?: unknown; summary?: unknown };

/** The readable text of OpenRouter's `reasoning_details` (encrypted entries have none). */
function detailsText(details: unknown): string {
  if (!Array.isArray(details)) return '';
  let text = '';
  for (const d of details as Detail[]) {
    if (typeof d?.text === 'string') text += d.text;
    else if (typeof d?.summary === 'string') text += d.summary;
  }
  return text;
}

/**
 * Moves `reasoning` (else the text of `reasoning_details`) into `reasoning_content` on a message
 * or stream delta, in place; true when it changed. A message with `reasoning_content` already keeps it.
 */
export function moveReasoningToContentField(o: Reasoned): boolean {
  if (o.reasoning === undefined && o.reasoning_details === undefined) return false;
  if (typeof o.reasoning_content !== 'string' || o.reasoning_content === '') {
    const text = typeof o.reasoning === 'string' && o.reasoning !== '' ? o.reasoning : detailsText(o.reasoning_details);
    if (text !== '') o.reasoning_content = text;
  }
  delete o.reasoning;
  delete o.reasoning_details;
  return true;
}
