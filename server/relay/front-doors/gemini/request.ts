import { z } from 'zod';
import { type RelayError, refusal } from '../../errors.ts';
import { convertGenerationConfig, convertTools, TOP_LEVEL, type Unconvertible } from './config.ts';
import { callIdOfSignature } from './signature.ts';

type InlineData = { mimeType?: string; data?: string };
type Part = {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: InlineData;
  fileData?: { mimeType?: string; fileUri?: string };
  functionCall?: { name?: string; args?: unknown; id?: string };
  functionResponse?: { name?: string; response?: unknown; id?: string; parts?: Part[] };
  executableCode?: { language?: string; code?: string };
  codeExecutionResult?: { outcome?: string; output?: string };
};
type Msg = Record<string, unknown>;
type ContentPart = Record<string, unknown>;

/** The generateContent body as far as the gateway reads it; a Gemini channel gets it as it came. */
export const geminiBody = z.looseObject({
  contents: z.array(z.looseObject({ role: z.string().optional(), parts: z.array(z.looseObject({})).optional() }), {
    message: 'contents is required',
  }),
  systemInstruction: z.unknown().optional(),
  generationConfig: z.looseObject({}).optional(),
  tools: z.array(z.looseObject({})).optional(),
});

/** Fields read by geminiToOpenAI itself; every other top-level field is in config.ts's TOP_LEVEL. */
const READ = new Set([
  'contents',
  'systemInstruction',
  'system_instruction',
  'generationConfig',
  'generation_config',
  'tools',
  'toolConfig',
  'tool_config',
]);

/**
 * Gemini generateContent body -> canonical (OpenAI chat, extended) body, for channels of another
 * protocol and for pricing (docs/conversion.md § Gemini door). Contents here; generationConfig,
 * tools and the rest by the tables of config.ts. What cannot be carried is returned apart: it only
 * matters when the request is converted (nativeOnlyOf), a Gemini channel takes the body as it came.
 */
export function convertGeminiRequest(
  model: string,
  stream: boolean,
  body: z.infer<typeof geminiBody>,
): { canonical: Record<string, unknown>; unconvertible: Unconvertible[] } {
  const left: Unconvertible[] = [];
  const messages: Msg[] = [];
  const system = systemOf(body.systemInstruction ?? body.system_instruction);
  if (system) messages.push({ role: 'system', content: system });
  messages.push(...messagesOf(body.contents as { role?: string; parts?: Part[] }[], left));

  const out: Record<string, unknown> = { model, messages };
  left.push(
    ...convertGenerationConfig((body.generationConfig ?? body.generation_config ?? {}) as Record<string, unknown>, out),
  );
  left.push(...convertTools((body.tools ?? []) as never[], body.toolConfig ?? body.tool_config, out));
  for (const [k, v] of Object.entries(body)) {
    if (READ.has(k) || v === undefined || v === null) continue;
    const rule = TOP_LEVEL[k];
    if (!rule) left.push({ field: k, en: 'the gateway has no conversion for it', zh: '网关没有对应的转换' });
    else if ('refused' in rule) left.push({ field: k, ...rule.refused });
  }
  if (stream) {
    out.stream = true;
    out.stream_options = { include_usage: true };
  }
  return { canonical: out, unconvertible: left };
}

export const geminiToOpenAI = (model: string, stream: boolean, body: z.infer<typeof geminiBody>) =>
  convertGeminiRequest(model, stream, body).canonical;

/** The answer on a non-Gemini channel for a request with unconvertible fields (the first one named). */
export function nativeOnlyOf(left: Unconvertible[]): RelayError | undefined {
  const f = left[0];
  if (!f) return undefined;
  const more = left.length > 1 ? ` (and ${left.length - 1} more)` : '';
  return refusal(
    400,
    `${f.field} cannot be converted for this model's upstream, which does not speak Gemini: ${f.en}${more}.`,
    `${f.field} 无法转换到该模型的上游（非 Gemini 协议）：${f.zh}。`,
    'unsupported_field',
  );
}

function systemOf(s: unknown): string | ContentPart[] | undefined {
  if (typeof s === 'string') return s || undefined;
  const texts = ((s as { parts?: Part[] } | undefined)?.parts ?? [])
    .filter((p) => typeof p.text === 'string' && p.text && !p.thought)
    .map((p) => p.text!);
  if (texts.length <= 1) return texts[0];
  // Several blocks stay apart (an Anthropic upstream gets one system block each).
  return texts.map((text) => ({ type: 'text', text }));
}

/** inlineData as a canonical part: images as image_url, audio as input_audio, anything else as a file (data URL). */
function mediaPart(d: InlineData): ContentPart {
  const mime = d.mimeType ?? 'application/octet-stream';
  const url = `data:${mime};base64,${d.data ?? ''}`;
  if (mime.startsWith('image/')) return { type: 'image_url', image_url: { url } };
  const audio = /^audio\/(?:x-)?(wav|mp3|mpeg)$/.exec(mime);
  if (audio)
    return { type: 'input_audio', input_audio: { data: d.data ?? '', format: audio[1] === 'mpeg' ? 'mp3' : audio[1] } };
  return { type: 'file', file: { file_data: url } };
}

/** One Gemini call awaiting its response: matched by id, else by name in order. */
interface PendingCall {
  id: string;
  name: string;
  answered: boolean;
}

/**
 * contents -> messages. Model turns: text to content, thought parts to reasoning_content,
 * functionCall to tool_calls (id kept; when absent, read back from a gateway-made thoughtSignature;
 * a Google signature kept as thought_signature). User turns: functionResponse to tool messages (an
 * `{error}` response as is_error; its `parts` and the inlineData beside it as the tool message's
 * images), other parts to a user message after them.
 */
function messagesOf(contents: { role?: string; parts?: Part[] }[], left: Unconvertible[]): Msg[] {
  const messages: Msg[] = [];
  const pending: PendingCall[] = [];
  let n = 0;
  const answer = (r: NonNullable<Part['functionResponse']>) => {
    const open = pending.filter((c) => !c.answered);
    const call = open.find((c) => r.id && c.id === r.id) ?? open.find((c) => c.name === (r.name ?? ''));
    if (call) call.answered = true;
    return call?.id ?? r.id ?? `call_${n++}`;
  };

  for (const c of contents) {
    const content: ContentPart[] = [];
    const calls: Msg[] = [];
    const tools: Msg[] = [];
    let reasoning = '';
    for (const p of c.parts ?? []) {
      if (p.functionCall) {
        const own = callIdOfSignature(p.thoughtSignature);
        const id = p.functionCall.id ?? own ?? `call_${n++}`;
        pending.push({ id, name: p.functionCall.name ?? '', answered: false });
        calls.push({
          id,
          type: 'function',
          function: { name: p.functionCall.name ?? '', arguments: JSON.stringify(p.functionCall.args ?? {}) },
          ...(p.thoughtSignature && !own ? { thought_signature: p.thoughtSignature } : {}),
        });
      } else if (p.functionResponse) tools.push(toolMessage(p.functionResponse, answer(p.functionResponse)));
      else if (p.thought) reasoning += p.text ?? '';
      else if (p.inlineData) content.push(mediaPart(p.inlineData));
      else if (p.fileData) {
        if (p.fileData.mimeType && !p.fileData.mimeType.startsWith('image/'))
          left.push({
            field: 'contents[].parts[].fileData',
            en: `a ${p.fileData.mimeType} file given by URI can only be read by Gemini`,
            zh: `以 URI 给出的 ${p.fileData.mimeType} 文件只有 Gemini 能读取`,
          });
        else content.push({ type: 'image_url', image_url: { url: p.fileData.fileUri } });
      } else if (p.executableCode)
        content.push({
          type: 'text',
          text: `\`\`\`${(p.executableCode.language ?? '').toLowerCase()}\n${p.executableCode.code ?? ''}\n\`\`\``,
        });
      else if (p.codeExecutionResult) content.push({ type: 'text', text: p.codeExecutionResult.output ?? '' });
      else if (typeof p.text === 'string') content.push({ type: 'text', text: p.text });
    }
    if (c.role === 'model') {
      if (content.length || calls.length || reasoning)
        messages.push({
          role: 'assistant',
          content: flatten(content, calls.length > 0),
          ...(calls.length ? { tool_calls: calls } : {}),
          ...(reasoning ? { reasoning_content: reasoning } : {}),
        });
      continue;
    }
    // Images beside function responses belong to them (how a tool's screenshot reaches Gemini 2.5).
    const media = tools.length ? content.filter((x) => x.type !== 'text') : [];
    const rest = tools.length ? content.filter((x) => x.type === 'text') : content;
    if (media.length) {
      const last = tools.at(-1)!;
      last.content = [...partsOf(last.content), ...media];
    }
    messages.push(...tools);
    if (rest.length) messages.push({ role: 'user', content: flatten(rest, false) });
  }
  return messages;
}

function toolMessage(r: NonNullable<Part['functionResponse']>, id: string): Msg {
  const response = (r.response ?? {}) as Record<string, unknown>;
  const text = JSON.stringify(response);
  const media = (r.parts ?? []).filter((p) => p.inlineData).map((p) => mediaPart(p.inlineData!));
  const failed = typeof response === 'object' && 'error' in response && !('output' in response);
  return {
    role: 'tool',
    tool_call_id: id,
    name: r.name,
    content: media.length ? [{ type: 'text', text }, ...media] : text,
    ...(failed ? { is_error: true } : {}),
  };
}

const partsOf = (c: unknown): ContentPart[] =>
  typeof c === 'string' ? [{ type: 'text', text: c }] : (c as ContentPart[]);

/** Text-only content as one string (null for an assistant turn that only calls tools). */
function flatten(content: ContentPart[], calls: boolean): string | ContentPart[] | null {
  if (!content.every((x) => x.type === 'text')) return content;
  const text = content.map((x) => x.text as string).join('');
  return text === '' && calls ? null : text;
}
