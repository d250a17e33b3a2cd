import { reasoningOf } from '../../canonical/reasoning.ts';
import { declaresNoParameters, geminiSchemaOf } from '../../canonical/schema.ts';
import { refusal } from '../../errors.ts';
import type { AttemptContext } from '../types.ts';
import { type InMessage, systemInstructionOf, toContents } from './contents.ts';
import { checkOpenAIFields, GEMINI_NATIVE } from './fields.ts';
import { thinkingConfigOf } from './thinking.ts';

const SAFETY_CATEGORIES = [
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_CIVIC_INTEGRITY',
];

/** Gemini's own tool objects, kept as they are when an OpenAI body lists them among its tools. */
const GEMINI_TOOLS = [
  'functionDeclarations',
  'googleSearch',
  'googleSearchRetrieval',
  'codeExecution',
  'urlContext',
  'googleMaps',
  'fileSearch',
  'computerUse',
];

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

/**
 * Canonical (OpenAI chat) body -> Gemini generateContent body (relay.md §8, docs/conversion.md § Gemini).
 * Every top-level field is in fields.ts: converted here, dropped for a stated reason, or refused.
 */
export async function toGeminiRequest(ctx: AttemptContext, body: Record<string, unknown>) {
  checkOpenAIFields(body);
  const out: Record<string, unknown> = {};
  for (const k of GEMINI_NATIVE) if (body[k] !== undefined && body[k] !== null) out[k] = body[k];
  const messages = (body.messages ?? []) as InMessage[];
  const system = systemInstructionOf(messages);
  if (system) out.systemInstruction = system;
  out.contents = await toContents(messages, ctx.carry);

  const limit = [body.max_tokens, body.max_completion_tokens].find((v) => typeof v === 'number') as number | undefined;
  const thinking = thinkingOf(ctx, limit);
  const gen = generationConfigOf(body, limit);
  // The model-name suffix is the operator's explicit choice; the request's reasoning fills in the rest.
  // A thinkingConfig given in Gemini's own words wins over both.
  const asked = thinkingConfigOf(thinking.model, reasoningOf(body));
  const own = (gen.thinkingConfig ?? {}) as Record<string, unknown>;
  const config: Record<string, unknown> = { ...asked, ...thinking.config, ...own };
  // Gemini refuses a level and a budget together: the budget came from the name or the client's config.
  if ('thinkingBudget' in config && 'thinkingLevel' in config && !('thinkingLevel' in own)) delete config.thinkingLevel;
  if (Object.keys(config).length) gen.thinkingConfig = config;
  // Image-output models answer with inlineData parts only when asked for both modalities.
  if (ctx.options('gemini.supported_imagine_models').includes(thinking.model))
    gen.responseModalities ??= ['TEXT', 'IMAGE'];
  if (Object.keys(gen).length > 0) out.generationConfig = gen;

  const tools = toolsOf(body);
  if (tools.length) out.tools = tools;
  const fc = functionCallingOf(body);
  if (fc) out.toolConfig = { ...(out.toolConfig as object | undefined), functionCallingConfig: fc };

  const safety = ctx.options('gemini.safety_settings');
  out.safetySettings ??= SAFETY_CATEGORIES.map((category) => ({
    category,
    threshold: safety[category] ?? safety.default ?? 'OFF',
  }));
  return { model: thinking.model, body: out };
}

/** The sampling, length, output-format and logprob fields as generationConfig (a given generationConfig is the base). */
function generationConfigOf(body: Record<string, unknown>, limit: number | undefined): Record<string, unknown> {
  const gen: Record<string, unknown> = { ...(body.generationConfig as object | undefined) };
  const num = (k: string, to: string) => {
    if (typeof body[k] === 'number') gen[to] = body[k];
  };
  num('temperature', 'temperature');
  num('top_p', 'topP');
  num('top_k', 'topK');
  num('seed', 'seed');
  num('presence_penalty', 'presencePenalty');
  num('frequency_penalty', 'frequencyPenalty');
  if (limit) gen.maxOutputTokens = limit;
  if (typeof body.n === 'number' && body.n > 1) gen.candidateCount = body.n;
  if (body.stop !== undefined && body.stop !== null)
    gen.stopSequences = Array.isArray(body.stop) ? body.stop : [body.stop];
  if (body.logprobs === true) {
    gen.responseLogprobs = true;
    if (typeof body.top_logprobs === 'number') gen.logprobs = body.top_logprobs;
  }
  const rf = body.response_format as { type?: string; json_schema?: { schema?: unknown } } | undefined | null;
  if (rf?.type === 'json_object' || rf?.type === 'json_schema') gen.responseMimeType = 'application/json';
  if (rf?.type === 'json_schema' && rf.json_schema?.schema) gen.responseSchema = geminiSchemaOf(rf.json_schema.schema);
  return gen;
}

interface OpenAITool {
  type?: string;
  function?: { name?: string; description?: string; parameters?: unknown };
  [gemini: string]: unknown;
}

/** Function tools (and legacy `functions`) as one functionDeclarations tool; Gemini's own tool objects kept. */
function toolsOf(body: Record<string, unknown>): Record<string, unknown>[] {
  const given = (Array.isArray(body.tools) ? body.tools : []) as OpenAITool[];
  const legacy = (Array.isArray(body.functions) ? body.functions : []) as OpenAITool['function'][];
  const fns = [
    ...given.filter((t) => t.type === 'function' || (t.function && !t.type)).map((t) => t.function),
    ...legacy,
  ];
  const native = given.filter((t) => t.type !== 'function' && GEMINI_TOOLS.some((k) => k in t));
  const other = given.find((t) => !(t.type === 'function' || (t.function && !t.type)) && !native.includes(t));
  if (other)
    throw refusal(
      400,
      `Tools of type "${String(other.type)}" cannot be sent to a Gemini upstream (function tools and Gemini's own tools can).`,
      `类型为 "${String(other.type)}" 的工具无法发送到 Gemini 上游（函数工具和 Gemini 自带工具可以）。`,
      'unsupported_field',
    );
  const decls = fns
    .filter((f) => f?.name)
    .map((f) => {
      const params = f!.parameters ? geminiSchemaOf(f!.parameters) : undefined;
      return {
        name: f!.name,
        ...(f!.description ? { description: f!.description } : {}),
        ...(params && !declaresNoParameters(params) ? { parameters: params } : {}),
      };
    });
  const out: Record<string, unknown>[] = decls.length ? [{ functionDeclarations: decls }] : [];
  out.push(...native.map((t) => Object.fromEntries(Object.entries(t).filter(([k]) => k !== 'type'))));
  if (body.web_search_options && !native.some((t) => 'googleSearch' in t)) out.push({ googleSearch: {} });
  return out;
}

/** tool_choice (or legacy function_call) as functionCallingConfig; `auto` is Gemini's default and sends nothing. */
function functionCallingOf(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const tc = body.tool_choice ?? body.function_call;
  if (tc === 'none') return { mode: 'NONE' };
  if (tc === 'required') return { mode: 'ANY' };
  if (!tc || typeof tc !== 'object') return undefined;
  const c = tc as {
    type?: string;
    name?: string;
    function?: { name?: string };
    allowed_tools?: { mode?: string; tools?: { function?: { name?: string } }[] };
  };
  if (c.type === 'allowed_tools' && c.allowed_tools) {
    const names = (c.allowed_tools.tools ?? []).map((t) => t.function?.name).filter((n): n is string => !!n);
    // Gemini takes a list of allowed functions in ANY mode, and in VALIDATED (its "auto, within these").
    return { mode: c.allowed_tools.mode === 'required' ? 'ANY' : 'VALIDATED', allowedFunctionNames: names };
  }
  const name = c.function?.name ?? c.name;
  return name ? { mode: 'ANY', allowedFunctionNames: [name] } : undefined;
}
