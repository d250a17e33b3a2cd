import type { ReasoningEffort } from '../../canonical/types.ts';

/*
 * OpenAI's reasoning models (o-series, GPT-5 and later, codex-mini) refuse parts of the Chat
 * Completions request that other models take: `max_tokens` (they want `max_completion_tokens`),
 * sampling parameters other than their defaults, and reasoning efforts they do not know. A
 * request converted from another dialect (Claude Code mapped to o3 or gpt-5) carries all of
 * these, so the body is fitted to the model by the table below (docs/conversion.md § OpenAI).
 */

export interface ReasoningModel {
  /** The `reasoning_effort` values the model takes, lowest first; empty when it takes none (o1-mini). */
  efforts: readonly ReasoningEffort[];
  /** The model refuses `stop` (o3, o4-mini, GPT-5). */
  noStop: boolean;
  /** The model refuses `parallel_tool_calls` (the o-series). */
  noParallelToolCalls: boolean;
  /** The model takes no system or developer message (o1-mini, o1-preview): it becomes a user message. */
  noSystem: boolean;
}

const O_SERIES: readonly ReasoningEffort[] = ['low', 'medium', 'high'];

/** First match wins; names are matched without a vendor prefix (`openai/o3` on OpenRouter is `o3`). */
const TABLE: [RegExp, ReasoningModel][] = [
  [/^o1-(mini|preview)/, { efforts: [], noStop: false, noParallelToolCalls: true, noSystem: true }],
  [/^o3-mini/, { efforts: O_SERIES, noStop: false, noParallelToolCalls: true, noSystem: false }],
  [/^o1(-|$)/, { efforts: O_SERIES, noStop: false, noParallelToolCalls: true, noSystem: false }],
  [/^(o[34]|codex-mini)(-|$)/, { efforts: O_SERIES, noStop: true, noParallelToolCalls: true, noSystem: false }],
  // GPT-5 chat models are not reasoning models: they take every parameter.
  [/^gpt-5(\.\d+)?-chat/, { efforts: [], noStop: false, noParallelToolCalls: false, noSystem: false }],
  [/^gpt-5-pro/, gpt5(['high'])],
  [/^gpt-5(-codex)?(-|$)/, gpt5(['minimal', 'low', 'medium', 'high'])],
  [/^gpt-5\.1-codex-max/, gpt5(['low', 'medium', 'high', 'xhigh'])],
  [/^gpt-5\.1-codex/, gpt5(O_SERIES)],
  [/^gpt-5\.1(-|$)/, gpt5(['none', 'low', 'medium', 'high'])],
  [/^gpt-5\.\d+-pro/, gpt5(['medium', 'high', 'xhigh'])],
  // GPT-5.2 and later.
  [/^gpt-5\.\d+/, gpt5(['none', 'low', 'medium', 'high', 'xhigh'])],
];

function gpt5(efforts: readonly ReasoningEffort[]): ReasoningModel {
  return { efforts, noStop: true, noParallelToolCalls: false, noSystem: false };
}

/** The rules of an OpenAI reasoning model, or undefined for any other model (GPT-4o, GPT-5 chat, vendors' own). */
export function reasoningModelOf(upstreamModel: string): ReasoningModel | undefined {
  const name = bareModelName(upstreamModel);
  if (name.charCodeAt(0) !== 111 /* o */ && !name.startsWith('gpt-5') && !name.startsWith('codex-')) return undefined;
  for (const [re, rules] of TABLE) if (re.test(name)) return rules.efforts.length || rules.noSystem ? rules : undefined;
  return undefined;
}

/** `openai/o3` (OpenRouter) and `azure/gpt-5` name the same model as `o3` and `gpt-5`. */
export const bareModelName = (model: string): string => {
  const slash = model.lastIndexOf('/');
  return (slash >= 0 ? model.slice(slash + 1) : model).toLowerCase();
};

/** Whether the model name is one of OpenAI's own (GPT, o-series, ChatGPT, codex, OpenAI's embeddings and images). */
export const isOpenAIModelName = (model: string): boolean =>
  /^(gpt-|o\d|chatgpt-|codex-|text-embedding-|dall-e|whisper|tts-|omni-)/.test(bareModelName(model));

const ORDER: readonly ReasoningEffort[] = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'];

/**
 * The supported effort nearest to the one asked (a tie goes to the higher: reasoning more is the
 * safer error). `none` on a model that cannot turn reasoning off becomes its lowest effort.
 */
export function nearestEffort(asked: ReasoningEffort, supported: readonly ReasoningEffort[]): ReasoningEffort {
  if (supported.includes(asked)) return asked;
  const at = ORDER.indexOf(asked);
  let best = supported[0];
  let bestDistance = Infinity;
  for (const e of supported) {
    const d = Math.abs(ORDER.indexOf(e) - at);
    if (d < bestDistance || (d === bestDistance && ORDER.indexOf(e) > ORDER.indexOf(best))) {
      best = e;
      bestDistance = d;
    }
  }
  return best;
}
