import type { CanonicalTool } from '../../../canonical/types.ts';
import { refusal } from '../../../errors.ts';
import type { Refuse, ResponsesTool } from './shapes.ts';

/*
 * Custom tools (free-form input, e.g. Codex CLI's apply_patch) are emulated on chat upstreams as a
 * function taking one string, `input`; a call to one comes back as a custom_tool_call.
 */
const CUSTOM_PARAMETERS = {
  type: 'object',
  properties: { input: { type: 'string', description: 'The raw input of the tool.' } },
  required: ['input'],
  additionalProperties: false,
};

/** A custom tool call's canonical arguments. */
export const customArguments = (input: string | undefined) => JSON.stringify({ input: input ?? '' });

/** A custom tool call's input, from the canonical arguments of its emulating function. */
export function customInput(args: string): string {
  try {
    const o = JSON.parse(args) as { input?: unknown };
    if (typeof o?.input === 'string') return o.input;
  } catch {
    // A model that answered something else than the one-string object: its arguments are the input.
  }
  return args;
}

export const BUILT_IN = (type: string) =>
  refusal(
    400,
    `The built-in tool "${type}" runs on OpenAI's servers; this model's channel does not speak the Responses API, so only function and custom tools can be used.`,
    `内置工具 "${type}" 只能在 OpenAI 的服务器上运行；此模型的渠道不支持 Responses API，只能使用 function 与 custom 工具。`,
    'unsupported_tool',
  );

/** Responses tools -> canonical tools; built-in tools are refused. Returns the custom tools' names too. */
export function toolsToCanonical(
  tools: ResponsesTool[],
  refuse: Refuse,
): { tools: CanonicalTool[]; custom: Set<string> } {
  const out: CanonicalTool[] = [];
  const custom = new Set<string>();
  for (const t of tools) {
    if (t.type === 'function' && t.name) {
      out.push({
        type: 'function',
        function: {
          name: t.name,
          ...(t.description ? { description: t.description } : {}),
          parameters: t.parameters ?? { type: 'object', properties: {} },
          ...(typeof t.strict === 'boolean' ? { strict: t.strict } : {}),
        },
      });
    } else if (t.type === 'custom' && t.name) {
      custom.add(t.name);
      const f = t.format;
      const grammar =
        f?.type === 'grammar' && f.definition
          ? `\n\nThe input must follow this ${f.syntax ?? ''} grammar:\n${f.definition}`
          : '';
      out.push({
        type: 'function',
        function: {
          name: t.name,
          description: `${t.description ?? ''}${grammar}`.trim(),
          parameters: CUSTOM_PARAMETERS,
        },
      });
    } else refuse(BUILT_IN(String(t.type ?? 'unknown')));
  }
  return { tools: out, custom };
}

/** Canonical tools -> Responses function tools. Chat's tools are lax unless they say `strict`, Responses' strict by default. */
export const toolsToResponses = (tools: CanonicalTool[]): ResponsesTool[] =>
  tools.map((t) => ({
    type: 'function',
    name: t.function.name,
    ...(t.function.description ? { description: t.function.description } : {}),
    parameters: t.function.parameters ?? { type: 'object', properties: {} },
    strict: t.function.strict ?? false,
  }));

type ChatToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

/** Responses tool_choice -> chat's (allowed_tools narrows `tools` to the allowed ones). */
export function toolChoiceToCanonical(
  choice: unknown,
  tools: CanonicalTool[],
  refuse: Refuse,
): { choice?: ChatToolChoice; tools: CanonicalTool[] } {
  if (choice === undefined || choice === null) return { tools };
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { choice, tools };
  const c = choice as { type?: string; name?: string; mode?: string; tools?: { type?: string; name?: string }[] };
  if ((c.type === 'function' || c.type === 'custom') && c.name)
    return { choice: { type: 'function', function: { name: c.name } }, tools };
  if (c.type === 'allowed_tools' && Array.isArray(c.tools)) {
    const allowed = new Set(c.tools.map((t) => t.name));
    return {
      choice: c.mode === 'required' ? 'required' : 'auto',
      tools: tools.filter((t) => allowed.has(t.function.name)),
    };
  }
  refuse(BUILT_IN(String(c.type ?? 'unknown')));
  return { tools };
}

/** Chat tool_choice -> Responses'. */
export function toolChoiceToResponses(choice: unknown): unknown {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return choice;
  const name = (choice as { function?: { name?: string } } | null)?.function?.name;
  return name ? { type: 'function', name } : undefined;
}

type ResponseFormat = NonNullable<import('../../../canonical/types.ts').CanonicalRequest['response_format']>;

/** Responses `text.format` -> chat `response_format` (plain text is the default: nothing). */
export function formatToCanonical(format: unknown): ResponseFormat | undefined {
  const f = format as
    | { type?: string; name?: string; schema?: Record<string, unknown>; strict?: boolean | null; description?: string }
    | undefined;
  if (f?.type === 'json_object') return { type: 'json_object' };
  if (f?.type === 'json_schema')
    return {
      type: 'json_schema',
      json_schema: {
        name: f.name ?? 'response',
        ...(f.schema ? { schema: f.schema } : {}),
        ...(typeof f.strict === 'boolean' ? { strict: f.strict } : {}),
      },
    };
  return undefined;
}

/** Chat `response_format` -> Responses `text.format`. */
export function formatToResponses(format: unknown): Record<string, unknown> | undefined {
  const f = format as { type?: string; json_schema?: { name?: string; schema?: unknown; strict?: boolean } };
  if (f?.type === 'json_object') return { type: 'json_object' };
  if (f?.type === 'json_schema' && f.json_schema)
    return {
      type: 'json_schema',
      name: f.json_schema.name ?? 'response',
      schema: f.json_schema.schema ?? {},
      ...(typeof f.json_schema.strict === 'boolean' ? { strict: f.json_schema.strict } : {}),
    };
  return undefined;
}
