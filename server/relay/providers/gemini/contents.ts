import type { CarryStore } from '../../canonical/carry.ts';
import type { CanonicalPart } from '../../canonical/types.ts';
import { refusal } from '../../errors.ts';
import { inlineImage, parseArgs, parseDataUrl } from '../shared/images.ts';

type Part = Record<string, unknown>;
interface Turn {
  role: 'user' | 'model';
  parts: Part[];
}
interface ToolCall {
  id?: string;
  function?: { name?: string; arguments?: unknown };
  thought_signature?: string;
}
/** A canonical message as read here (OpenAI's legacy `function` role and `function_call` included). */
export interface InMessage {
  role: string;
  content?: unknown;
  tool_calls?: ToolCall[];
  function_call?: { name?: string; arguments?: unknown };
  tool_call_id?: string;
  name?: string;
  is_error?: boolean;
}

/**
 * Google's documented stand-in when a function call's real signature is unknown (a turn written by
 * another model, or a carry entry that expired): Gemini 3 refuses a tool loop's next turn when the
 * first functionCall of a model step has no thoughtSignature ("Function call is missing a
 * thought_signature"); with this value it skips the check and carries on, reasoning afresh.
 */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator';

const textOfParts = (parts: CanonicalPart[]) =>
  parts.map((p) => (p.type === 'text' ? p.text : ((p as { refusal?: string }).refusal ?? ''))).join('');

/** The system and developer messages as systemInstruction, one part per text block. */
export function systemInstructionOf(messages: InMessage[]): { parts: { text: string }[] } | undefined {
  const parts: { text: string }[] = [];
  for (const m of messages) {
    if (m.role !== 'system' && m.role !== 'developer') continue;
    if (typeof m.content === 'string') {
      if (m.content) parts.push({ text: m.content });
    } else if (Array.isArray(m.content))
      for (const p of m.content as CanonicalPart[]) if (p.type === 'text' && p.text) parts.push({ text: p.text });
  }
  return parts.length ? { parts } : undefined;
}

/**
 * Canonical messages (system ones excepted) -> Gemini contents. Assistant tool calls become
 * functionCall parts carrying their thoughtSignature (the call's own, else the one remembered for its
 * id, else SKIP_SIGNATURE on the step's first call); tool results become functionResponse parts (an
 * error as `{error}`), their images inlineData parts after them in the same user turn (this works on
 * 2.5 and 3 alike; functionResponse.parts is Gemini 3 only). Consecutive same-role turns are merged
 * (Gemini wants them alternating). Reasoning text of earlier turns is not sent: Gemini reads nothing
 * from unsigned thought text.
 */
export async function toContents(messages: InMessage[], carry: CarryStore): Promise<Turn[]> {
  const unsigned = messages.flatMap((m) =>
    m.role === 'assistant' ? (m.tool_calls ?? []).filter((c) => !c.thought_signature && c.id).map((c) => c.id!) : [],
  );
  const recalled = unsigned.length ? await carry.recall(unsigned) : new Map();
  const names = new Map<string, string>();
  const out: Turn[] = [];
  const turn = (role: Turn['role']) => {
    const last = out.at(-1);
    if (last?.role === role) return last;
    const t: Turn = { role, parts: [] };
    out.push(t);
    return t;
  };

  for (const m of messages) {
    if (m.role === 'system' || m.role === 'developer') continue;
    if (m.role === 'tool' || m.role === 'function') {
      const name = names.get(m.tool_call_id ?? '') ?? m.name ?? '';
      const { response, media } = await toolResult(m);
      const t = turn('user');
      // functionResponse parts lead the turn, in call order; the media they returned follow them.
      const at = t.parts.findIndex((p) => !p.functionResponse);
      t.parts.splice(at < 0 ? t.parts.length : at, 0, { functionResponse: { name, response } });
      t.parts.push(...media);
      continue;
    }
    const parts = await contentParts(m.content);
    if (m.role === 'assistant') {
      const calls: ToolCall[] = [...(m.tool_calls ?? [])];
      if (m.function_call) calls.push({ id: m.function_call.name, function: m.function_call });
      calls.forEach((c, i) => {
        names.set(c.id ?? '', c.function?.name ?? '');
        const signature = c.thought_signature ?? recalled.get(c.id ?? '')?.thought_signature;
        parts.push({
          functionCall: { name: c.function?.name ?? '', args: parseArgs(c.function?.arguments) },
          ...(signature ? { thoughtSignature: signature } : i === 0 ? { thoughtSignature: SKIP_SIGNATURE } : {}),
        });
      });
    }
    if (parts.length) turn(m.role === 'assistant' ? 'model' : 'user').parts.push(...parts);
  }
  return out;
}

/** A message's content as Gemini parts: text, images and documents inline, audio inline. */
async function contentParts(content: unknown): Promise<Part[]> {
  if (typeof content === 'string') return content ? [{ text: content }] : [];
  if (!Array.isArray(content)) return [];
  const out: Part[] = [];
  for (const p of content as (CanonicalPart | { type: string; refusal?: string })[]) {
    if (p.type === 'text') {
      if ((p as { text: string }).text) out.push({ text: (p as { text: string }).text });
    } else if (p.type === 'refusal') {
      if ((p as { refusal?: string }).refusal) out.push({ text: (p as { refusal: string }).refusal });
    } else out.push(await mediaPart(p as CanonicalPart));
  }
  return out;
}

async function mediaPart(p: CanonicalPart): Promise<Part> {
  if (p.type === 'image_url') {
    const given = p.image_url as unknown as string | { url?: string };
    const url = typeof given === 'string' ? given : (given?.url ?? '');
    const img = await inlineImage(url);
    return { inlineData: { mimeType: img.mediaType, data: img.data } };
  }
  if (p.type === 'input_audio')
    return { inlineData: { mimeType: `audio/${p.input_audio.format || 'wav'}`, data: p.input_audio.data } };
  if (p.type === 'file') {
    const doc = p.file.file_data ? parseDataUrl(p.file.file_data) : undefined;
    if (doc) return { inlineData: { mimeType: doc.mediaType, data: doc.data } };
    throw refusal(
      400,
      'A file part needs its content (file_data as a base64 data URL): an OpenAI file_id means nothing to a Gemini upstream.',
      '文件内容需以 file_data（base64 data URL）给出：OpenAI 的 file_id 对 Gemini 上游无意义。',
      'unsupported_content',
    );
  }
  throw refusal(
    400,
    `Content parts of type "${(p as { type?: string }).type}" cannot be sent to a Gemini upstream.`,
    `类型为 "${(p as { type?: string }).type}" 的内容无法发送到 Gemini 上游。`,
    'unsupported_content',
  );
}

/** A tool result as functionResponse.response (`{error}` when it failed) plus the media it returned. */
async function toolResult(m: InMessage): Promise<{ response: Record<string, unknown>; media: Part[] }> {
  const parts: CanonicalPart[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : [];
  if (Array.isArray(m.content)) parts.push(...(m.content as CanonicalPart[]));
  const text = textOfParts(parts.filter((p) => p.type === 'text'));
  const media: Part[] = [];
  for (const p of parts) if (p.type !== 'text') media.push(await mediaPart(p));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  if (m.is_error) return { response: { error: isObject ? value : text }, media };
  return { response: isObject ? (value as Record<string, unknown>) : { content: text }, media };
}
