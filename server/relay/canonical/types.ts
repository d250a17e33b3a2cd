/*
 * The relay's internal form: OpenAI's Chat Completions body, extended with what the other
 * dialects carry and plain chat cannot (docs/conversion.md). Every front door parses into it,
 * every provider renders from it. Extension fields are marked [ext]: an OpenAI-compatible
 * upstream never sees them — the OpenAI adapter renders or strips them like any other provider.
 *
 * Why OpenAI chat and not a new shape: nine in ten channels speak it, so the common path (an
 * OpenAI client on an OpenAI-compatible channel) stays a pass-through with no conversion.
 */

/** Anthropic's prompt-cache marker, kept on the block it was set on. */
export interface CacheControl {
  type: 'ephemeral';
  ttl?: string;
}

export type CanonicalPart =
  | { type: 'text'; text: string; cache_control?: CacheControl }
  | { type: 'image_url'; image_url: { url: string; detail?: string }; cache_control?: CacheControl }
  /** A document (PDF, plain text) as OpenAI's file part: `file_data` is a data URL. */
  | { type: 'file'; file: { file_data?: string; file_id?: string; filename?: string }; cache_control?: CacheControl }
  | { type: 'input_audio'; input_audio: { data: string; format: string } };

/** A reasoning block as Anthropic returns it; the signature must go back unchanged in a tool loop. */
export type ThinkingBlock =
  { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

/**
 * One item of OpenRouter's `reasoning_details` (MiniMax sends them too): readable text or a
 * summary, or an opaque encrypted block; the upstream wants them back to continue its reasoning.
 */
export interface ReasoningDetail {
  type: 'reasoning.text' | 'reasoning.summary' | 'reasoning.encrypted' | (string & {});
  text?: string;
  summary?: string;
  data?: string;
  signature?: string | null;
  id?: string | null;
  format?: string | null;
  index?: number;
}

export interface CanonicalToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  /** [ext] Gemini's `thoughtSignature` of this call, when the client gave it back itself. */
  thought_signature?: string;
}

export type CanonicalMessage =
  | { role: 'system' | 'developer'; content: string | CanonicalPart[] }
  | { role: 'user'; content: string | CanonicalPart[]; name?: string }
  | {
      role: 'assistant';
      content: string | CanonicalPart[] | null;
      tool_calls?: CanonicalToolCall[];
      /**
       * [ext] The turn's reasoning text (DeepSeek's name). Answers that spell it `reasoning` or
       * `reasoning_details` are read into it (canonical/reasoning-spellings.ts).
       */
      reasoning_content?: string;
      /** [ext] The upstream's own `reasoning_details` of this turn, recalled for it (canonical/carry.ts). */
      reasoning_details?: ReasoningDetail[];
      /** [ext] Signed reasoning blocks the client gave back (Anthropic clients do). */
      thinking_blocks?: ThinkingBlock[];
    }
  | {
      role: 'tool';
      tool_call_id: string;
      /** Text, or [ext] parts with images (a screenshot a tool returned). */
      content: string | CanonicalPart[];
      name?: string;
      /** [ext] The tool failed (Anthropic's `is_error`). */
      is_error?: boolean;
    };

export interface CanonicalTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

/**
 * What the client asked of reasoning, whichever dialect it spoke. One of effort or budget is set
 * when the client asked for reasoning; `effort: 'none'` (or budget 0) turns it off. The mapping
 * between them is canonical/reasoning.ts.
 */
export interface CanonicalReasoning {
  effort?: ReasoningEffort;
  /** Budget in tokens (Anthropic `budget_tokens`, Gemini `thinkingBudget`; -1 = the model decides). */
  budget_tokens?: number;
  /** Whether the client wants the reasoning text back (Gemini includeThoughts, Responses summary). */
  include?: boolean;
}

export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';

export interface CanonicalRequest {
  model: string;
  messages: CanonicalMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  /** Anthropic's and Gemini's top_k (OpenAI-compatible vendors such as vLLM take it too). */
  top_k?: number;
  stop?: string | string[];
  n?: number;
  seed?: number;
  tools?: CanonicalTool[];
  tool_choice?: 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };
  parallel_tool_calls?: boolean;
  response_format?:
    | { type: 'text' | 'json_object' }
    | { type: 'json_schema'; json_schema: { name: string; schema?: Record<string, unknown>; strict?: boolean } };
  reasoning_effort?: ReasoningEffort;
  /** [ext] Reasoning asked in a dialect that has a budget (set by the doors; read through reasoningOf()). */
  reasoning?: CanonicalReasoning;
  user?: string;
  /** Unknown fields from OpenAI clients pass through to OpenAI-compatible upstreams only. */
  [key: string]: unknown;
}

/** The usage every converter reports back (providers/types.ts `Usage` is the billing view of it). */
export interface CanonicalUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_creation_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
}
