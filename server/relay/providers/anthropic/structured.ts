import type { AttemptContext } from '../types.ts';
import type { Block } from './messages.ts';

/*
 * Structured output on Anthropic (docs/conversion.md § Anthropic): Claude has no
 * `response_format`, so a `json_schema` request is emulated the way Anthropic's own docs
 * suggest: one extra tool whose input_schema is the schema, chosen by tool_choice; the tool's
 * input comes back to the client as the message content (JSON and stream), never as a tool call.
 * `json_object` has no schema to force: it becomes an instruction at the end of the system prompt.
 */

/** What the answer converters need to turn the forced tool call back into content. */
export interface JsonAnswer {
  /** The emulation tool's name. */
  tool: string;
  /** The schema's root was not an object: it was wrapped as `{value: ...}` and is unwrapped back. */
  wrapped: boolean;
}

/** Per attempt: set while building the request, read by the response and stream converters. */
const answers = new WeakMap<AttemptContext, JsonAnswer>();
export const jsonAnswerOf = (ctx: AttemptContext): JsonAnswer | undefined => answers.get(ctx);

export const JSON_OBJECT_INSTRUCTION =
  'Respond with a single valid JSON object and nothing else: no prose, no Markdown code fences.';

type ResponseFormat = {
  type?: string;
  json_schema?: { name?: string; description?: string; schema?: Record<string, unknown> };
};

export interface StructuredRequest {
  /** The tool to add and force (json_schema). */
  tool?: Block;
  /** Text to append to the system prompt (json_object). */
  instruction?: string;
}

/** The request side of the emulation; remembers on the attempt how to read the answer. */
export function structuredOutput(ctx: AttemptContext, format: unknown): StructuredRequest {
  const f = format as ResponseFormat | undefined;
  if (f?.type === 'json_object') return { instruction: JSON_OBJECT_INSTRUCTION };
  if (f?.type !== 'json_schema') return {};
  const schema = f.json_schema?.schema ?? { type: 'object' };
  // Anthropic's input_schema must describe an object.
  const isObject = schema.type === 'object' || (schema.type === undefined && 'properties' in schema);
  const name = (f.json_schema?.name ?? '').replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'json_answer';
  answers.set(ctx, { tool: name, wrapped: !isObject });
  return {
    tool: {
      name,
      description:
        f.json_schema?.description ??
        'Give your final answer by calling this tool: its input is the answer, in the required JSON structure.',
      input_schema: isObject ? schema : { type: 'object', properties: { value: schema }, required: ['value'] },
    },
  };
}

/** The content the client sees for the emulation tool's input. */
export const answerText = (a: JsonAnswer, input: unknown): string =>
  JSON.stringify(a.wrapped ? (input as { value?: unknown } | null)?.value : input);
