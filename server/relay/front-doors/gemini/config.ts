import { isEffort } from '../../canonical/reasoning.ts';
import { jsonSchemaOfGemini } from '../../canonical/schema.ts';
import type { CanonicalReasoning } from '../../canonical/types.ts';

/*
 * The Gemini door's tables for everything besides contents (docs/conversion.md § Gemini door): each
 * field of generationConfig, the tools and toolConfig, and the top-level fields, converted into the
 * internal form, dropped for a stated reason, or listed as unconvertible. An unconvertible field does
 * not stop the request at the door (the same body relayed natively to a Gemini channel is fine): it
 * becomes the door's `nativeOnly` answer, given only when the request would be converted.
 */

/** What the door could not express in the internal form, with why (English, Chinese). */
export interface Unconvertible {
  field: string;
  en: string;
  zh: string;
}

type Out = Record<string, unknown>;
type GenRule =
  | { to: (v: unknown, out: Out) => void }
  | { dropped: string }
  | { refused: { en: string; zh: string } }
  /** Read together with another field (see the rule named). */
  | { with: string };

const num = (key: string) => ({
  to: (v: unknown, out: Out) => {
    if (typeof v === 'number') out[key] = v;
  },
});

export const GENERATION_CONFIG: Record<string, GenRule> = {
  maxOutputTokens: num('max_tokens'),
  temperature: num('temperature'),
  topP: num('top_p'),
  topK: num('top_k'),
  seed: num('seed'),
  presencePenalty: num('presence_penalty'),
  frequencyPenalty: num('frequency_penalty'),
  candidateCount: num('n'),
  logprobs: num('top_logprobs'),
  responseLogprobs: {
    to: (v, out) => {
      if (v === true) out.logprobs = true;
    },
  },
  stopSequences: {
    to: (v, out) => {
      if (Array.isArray(v) && v.length) out.stop = v;
    },
  },
  thinkingConfig: {
    to: (v, out) => {
      const r = reasoningOfThinkingConfig(v);
      if (r) out.reasoning = r;
    },
  },
  responseMimeType: { with: 'the response format (responseFormatOf)' },
  responseSchema: { with: 'responseMimeType' },
  responseJsonSchema: { with: 'responseMimeType' },
  _responseJsonSchema: { with: 'responseMimeType' },
  responseModalities: { with: 'the output modalities (TEXT only converts)' },
  mediaResolution: { dropped: 'how many tokens Gemini spends per image; other upstreams size images themselves' },
  enableEnhancedCivicAnswers: { dropped: 'a Gemini-only answer style for civic topics' },
  audioTimestamp: { dropped: 'timestamps for Gemini audio understanding; no other upstream has it' },
  routingConfig: { dropped: "Vertex AI's model routing; the gateway routes by channel" },
  modelSelectionConfig: { dropped: "Vertex AI's model routing; the gateway routes by channel" },
  enableAffectiveDialog: { dropped: 'a Live API voice setting' },
  speechConfig: {
    refused: {
      en: 'spoken output exists only on Gemini channels',
      zh: '语音输出只在 Gemini 渠道上可用',
    },
  },
  imageConfig: {
    refused: {
      en: 'image output exists only on Gemini channels',
      zh: '图片输出只在 Gemini 渠道上可用',
    },
  },
};

/** thinkingConfig -> the internal reasoning: budget as is, level as effort, includeThoughts as include. */
export function reasoningOfThinkingConfig(v: unknown): CanonicalReasoning | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const c = v as { thinkingBudget?: unknown; thinkingLevel?: unknown; includeThoughts?: unknown };
  const r: CanonicalReasoning = {};
  if (typeof c.thinkingBudget === 'number') r.budget_tokens = c.thinkingBudget;
  const level = typeof c.thinkingLevel === 'string' ? c.thinkingLevel.toLowerCase() : undefined;
  if (isEffort(level)) r.effort = level;
  if (typeof c.includeThoughts === 'boolean') r.include = c.includeThoughts;
  return Object.keys(r).length ? r : undefined;
}

const unconvertible = (field: string, en: string, zh: string): Unconvertible => ({ field, en, zh });

/** generationConfig into `out` (the canonical body); what cannot be carried is returned. */
export function convertGenerationConfig(gen: Record<string, unknown>, out: Out): Unconvertible[] {
  const left: Unconvertible[] = [];
  for (const [k, v] of Object.entries(gen)) {
    if (v === undefined || v === null) continue;
    const rule = GENERATION_CONFIG[k];
    if (!rule)
      left.push(unconvertible(`generationConfig.${k}`, 'the gateway has no conversion for it', '网关没有对应的转换'));
    else if ('to' in rule) rule.to(v, out);
    else if ('refused' in rule) left.push(unconvertible(`generationConfig.${k}`, rule.refused.en, rule.refused.zh));
  }
  const modalities = gen.responseModalities;
  if (Array.isArray(modalities) && modalities.some((m) => String(m).toUpperCase() !== 'TEXT'))
    left.push(
      unconvertible(
        'generationConfig.responseModalities',
        'image and audio output exist only on Gemini channels',
        '图片和音频输出只在 Gemini 渠道上可用',
      ),
    );
  const format = responseFormatOf(gen);
  if (format === 'unconvertible')
    left.push(
      unconvertible(
        'generationConfig.responseMimeType',
        `only application/json and text/plain answers convert (not ${String(gen.responseMimeType)})`,
        `只有 application/json 和 text/plain 可以转换（不含 ${String(gen.responseMimeType)}）`,
      ),
    );
  else if (format) out.response_format = format;
  return left;
}

/** responseMimeType with its schema -> response_format (a Gemini `Schema` read as JSON Schema; a JSON one as it is). */
function responseFormatOf(gen: Record<string, unknown>): Record<string, unknown> | 'unconvertible' | undefined {
  const mime = gen.responseMimeType;
  if (mime === undefined || mime === null || mime === 'text/plain') return undefined;
  if (mime !== 'application/json') return 'unconvertible';
  const json = gen.responseJsonSchema ?? gen._responseJsonSchema;
  const schema = json ?? (gen.responseSchema ? jsonSchemaOfGemini(gen.responseSchema) : undefined);
  return schema ? { type: 'json_schema', json_schema: { name: 'response', schema } } : { type: 'json_object' };
}

interface GeminiTool {
  functionDeclarations?: {
    name?: string;
    description?: string;
    parameters?: unknown;
    parametersJsonSchema?: unknown;
  }[];
  [other: string]: unknown;
}

/** Gemini tools that mean search: OpenAI's web_search_options says the same to any upstream. */
const SEARCH_TOOLS = new Set(['googleSearch', 'google_search', 'googleSearchRetrieval', 'google_search_retrieval']);

/**
 * tools and toolConfig -> canonical tools / tool_choice / web_search_options. parametersJsonSchema (Gemini
 * CLI) is JSON Schema already; `parameters` is Gemini's `Schema`, read into JSON Schema. An
 * ANY or VALIDATED mode with allowedFunctionNames keeps only those functions.
 */
export function convertTools(tools: GeminiTool[], toolConfig: unknown, out: Out): Unconvertible[] {
  const left: Unconvertible[] = [];
  const decls = tools.flatMap((t) => t.functionDeclarations ?? []);
  for (const t of tools)
    for (const k of Object.keys(t)) {
      if (k === 'functionDeclarations' || k === 'function_declarations') continue;
      if (SEARCH_TOOLS.has(k)) out.web_search_options = {};
      else
        left.push(
          unconvertible(
            `tools[].${k}`,
            'this Gemini tool runs only on Gemini channels',
            '该 Gemini 工具只能在 Gemini 渠道上运行',
          ),
        );
    }
  const fc = (toolConfig as { functionCallingConfig?: { mode?: string; allowedFunctionNames?: string[] } } | undefined)
    ?.functionCallingConfig;
  const mode = fc?.mode?.toUpperCase();
  const allowed =
    (mode === 'ANY' || mode === 'VALIDATED') && fc?.allowedFunctionNames?.length
      ? new Set(fc.allowedFunctionNames)
      : undefined;
  const kept = allowed ? decls.filter((d) => d.name && allowed.has(d.name)) : decls;
  if (kept.length)
    out.tools = kept.map((d) => ({
      type: 'function',
      function: {
        name: d.name,
        ...(d.description ? { description: d.description } : {}),
        parameters:
          (d.parametersJsonSchema as Record<string, unknown> | undefined) ??
          (d.parameters ? jsonSchemaOfGemini(d.parameters) : { type: 'object', properties: {} }),
      },
    }));
  if (mode === 'NONE') out.tool_choice = 'none';
  else if (mode === 'ANY')
    out.tool_choice =
      kept.length === 1 && allowed ? { type: 'function', function: { name: kept[0].name } } : 'required';
  else if (mode === 'AUTO' || mode === 'VALIDATED') out.tool_choice = 'auto';
  return left;
}

/** Top-level fields of a generateContent body other than contents, systemInstruction, tools and configs. */
export const TOP_LEVEL: Record<string, { dropped: string } | { refused: { en: string; zh: string } }> = {
  safetySettings: { dropped: "Gemini's harm thresholds; other upstreams apply their own policies" },
  safety_settings: { dropped: "Gemini's harm thresholds; other upstreams apply their own policies" },
  labels: { dropped: "Vertex AI's billing labels" },
  model: { dropped: 'the model is the one in the URL' },
  cachedContent: {
    refused: {
      en: 'a Gemini context cache lives on Google and holds content no other upstream can read',
      zh: 'Gemini 上下文缓存存放在 Google，其他上游无法读取其中内容',
    },
  },
};
