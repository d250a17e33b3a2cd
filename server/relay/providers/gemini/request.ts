import type { AttemptContext } from '../types.ts';
import { inlineImage, parseArgs, textOf } from '../shared/images.ts';

type Part = Record<string, unknown>;
interface OpenAIMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id?: string; function?: { name?: string; arguments?: unknown } }[];
  tool_call_id?: string;
  name?: string;
}

/** OpenAI fields converted below or without a Gemini counterpart (Gemini rejects unknown keys). */
const OPENAI_ONLY = [
  'model',
  'messages',
  'stream',
  'stream_options',
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'top_k',
  'stop',
  'n',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'response_format',
  'user',
  'seed',
  'frequency_penalty',
  'presence_penalty',
  'reasoning_effort',
  'logprobs',
  'top_logprobs',
  'logit_bias',
  'store',
  'modalities',
  'functions',
  'function_call',
];

const SAFETY_CATEGORIES = [
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_CIVIC_INTEGRITY',
];

/** JSON-schema keys Gemini's OpenAPI subset refuses; dropped recursively (relay.md §8). */
const UNSUPPORTED_SCHEMA_KEYS = new Set([
  '$schema',
  '$id',
  '$ref',
  '$defs',
  'definitions',
  'additionalProperties',
  'strict',
  'examples',
  'default',
  'const',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'patternProperties',
  'unevaluatedProperties',
  'title',
  'propertyNames',
]);

export function cleanSchema(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(cleanSchema);
  if (!s || typeof s !== 'object') return s;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (UNSUPPORTED_SCHEMA_KEYS.has(k)) continue;
    out[k] =
      k === 'properties' && v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([p, x]) => [p, cleanSchema(x)]))
        : cleanSchema(v);
  }
  return out;
}

/** `-thinking`, `-thinking-<budget>` and `-nothinking` names drive the thinking adapter (gemini.thinking_adapter_*). */
export function thinkingOf(ctx: AttemptContext, maxTokens: number | undefined) {
  const m = /^(.*?)-(nothinking|thinking)(?:-(\d+))?$/.exec(ctx.upstreamModel);
  if (!m || !ctx.options('gemini.thinking_adapter_enabled')) return { model: ctx.upstreamModel, config: undefined };
  if (m[2] === 'nothinking') return { model: m[1], config: { thinkingBudget: 0 } };
  const config: Record<string, unknown> = { includeThoughts: true };
  if (m[3]) config.thinkingBudget = Number(m[3]);
  else if (maxTokens && ctx.options('gemini.models_supported_thinking_budget').some((x) => m[1].startsWith(x)))
    config.thinkingBudget = Math.floor(maxTokens * ctx.options('gemini.thinking_adapter_budget_tokens_percentage'));
  return { model: m[1], config };
}

/** OpenAI chat body -> Gemini generateContent body (relay.md §8). Unknown fields pass through. */
export async function toGeminiRequest(ctx: AttemptContext, body: Record<string, unknown>) {
  const out: Record<string, unknown> = { ...body };
  for (const k of OPENAI_ONLY) delete out[k];
  const messages = (body.messages ?? []) as OpenAIMessage[];
  const system = messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => textOf(m.content));
  if (system.some(Boolean)) out.systemInstruction = { parts: [{ text: system.filter(Boolean).join('\n') }] };
  out.contents = await toContents(messages.filter((m) => m.role !== 'system' && m.role !== 'developer'));

  const limit = [body.max_tokens, body.max_completion_tokens].find((v) => typeof v === 'number') as number | undefined;
  const thinking = thinkingOf(ctx, limit);
  const gen: Record<string, unknown> = { ...(body.generationConfig as object | undefined) };
  if (typeof body.temperature === 'number') gen.temperature = body.temperature;
  if (typeof body.top_p === 'number') gen.topP = body.top_p;
  if (typeof body.top_k === 'number') gen.topK = body.top_k;
  if (limit) gen.maxOutputTokens = limit;
  if (typeof body.n === 'number' && body.n > 1) gen.candidateCount = body.n;
  if (typeof body.seed === 'number') gen.seed = body.seed;
  if (body.stop !== undefined && body.stop !== null)
    gen.stopSequences = Array.isArray(body.stop) ? body.stop : [body.stop];
  const rf = body.response_format as { type?: string; json_schema?: { schema?: unknown } } | undefined;
  if (rf?.type === 'json_object' || rf?.type === 'json_schema') gen.responseMimeType = 'application/json';
  if (rf?.type === 'json_schema' && rf.json_schema?.schema) gen.responseSchema = cleanSchema(rf.json_schema.schema);
  if (thinking.config) gen.thinkingConfig = thinking.config;
  // Image-output models answer with inlineData parts only when asked for both modalities.
  if (ctx.options('gemini.supported_imagine_models').includes(thinking.model))
    gen.responseModalities ??= ['TEXT', 'IMAGE'];
  if (Object.keys(gen).length > 0) out.generationConfig = gen;

  const tools = (Array.isArray(body.tools) ? body.tools : []) as {
    function?: { name?: string; description?: string; parameters?: unknown };
  }[];
  const decls = tools
    .filter((t) => t.function?.name)
    .map((t) => ({
      name: t.function!.name,
      ...(t.function!.description ? { description: t.function!.description } : {}),
      ...(t.function!.parameters ? { parameters: cleanSchema(t.function!.parameters) } : {}),
    }));
  if (decls.length > 0) out.tools = [{ functionDeclarations: decls }];
  const tc = body.tool_choice;
  if (tc === 'none') out.toolConfig = { functionCallingConfig: { mode: 'NONE' } };
  else if (tc === 'required') out.toolConfig = { functionCallingConfig: { mode: 'ANY' } };
  else if (tc && typeof tc === 'object') {
    const name = (tc as { function?: { name?: string } }).function?.name;
    if (name) out.toolConfig = { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [name] } };
  }
  const safety = ctx.options('gemini.safety_settings');
  out.safetySettings ??= SAFETY_CATEGORIES.map((category) => ({
    category,
    threshold: safety[category] ?? safety.default ?? 'OFF',
  }));
  return { model: thinking.model, body: out };
}

async function toContents(messages: OpenAIMessage[]) {
  const names = new Map<string, string>();
  const out: { role: string; parts: Part[] }[] = [];
  for (const m of messages) {
    const parts: Part[] = [];
    const role = m.role === 'assistant' ? 'model' : 'user';
    if (m.role === 'tool') {
      const name = names.get(m.tool_call_id ?? '') ?? m.name ?? '';
      const text = textOf(m.content);
      let response: unknown;
      try {
        response = JSON.parse(text);
      } catch {
        response = undefined;
      }
      const obj = response && typeof response === 'object' && !Array.isArray(response) ? response : { content: text };
      parts.push({ functionResponse: { name, response: obj } });
    } else if (typeof m.content === 'string') {
      if (m.content !== '') parts.push({ text: m.content });
    } else if (Array.isArray(m.content)) {
      for (const p of m.content as {
        type?: string;
        text?: string;
        image_url?: { url?: string } | string;
        input_audio?: { data?: string; format?: string };
      }[]) {
        if (p.type === 'text' && p.text) parts.push({ text: p.text });
        else if (p.type === 'image_url') {
          const img = await inlineImage(typeof p.image_url === 'string' ? p.image_url : (p.image_url?.url ?? ''));
          parts.push({ inlineData: { mimeType: img.mediaType, data: img.data } });
        } else if (p.type === 'input_audio' && p.input_audio?.data)
          parts.push({ inlineData: { mimeType: `audio/${p.input_audio.format ?? 'wav'}`, data: p.input_audio.data } });
      }
    }
    for (const c of m.tool_calls ?? []) {
      names.set(c.id ?? '', c.function?.name ?? '');
      parts.push({ functionCall: { name: c.function?.name ?? '', args: parseArgs(c.function?.arguments) } });
    }
    if (parts.length === 0) continue;
    const last = out.at(-1);
    // Gemini wants alternating turns: consecutive same-role messages (several tool results) are merged.
    if (last && last.role === role) last.parts.push(...parts);
    else out.push({ role, parts });
  }
  return out;
}
