/*
 * Chat Completions checks, in two manners:
 * - `openai`: OpenAI itself. Unknown top-level arguments, unknown message/part/tool-call fields
 *   (the gateway's own extension fields such as `thinking_blocks`, `thought_signature`,
 *   `cache_control` included), tool messages that answer no call, calls left unanswered, images
 *   outside user messages, non-JSON-Schema tool parameters, and the parameters reasoning models
 *   refuse (`max_tokens`, temperature other than 1, penalties, logprobs) or need.
 * - `deepseek`: an OpenAI-compatible vendor in DeepSeek's manner: unknown fields are ignored, but
 *   roles and part types are closed sets (refused with its deserializer's words, HTTP 422) and the
 *   tool-call order is checked like OpenAI's.
 */
import {
  baseModel,
  checkFunctionSchema,
  effortsOf,
  extraKeys,
  isReasoningModel,
  openaiError,
  quoteList,
  REASONING_REFUSED,
} from './openai-common.ts';
import { isObject, type Json, type StrictRefusal } from './types.ts';

export type ChatManner = 'openai' | 'deepseek';

/** The Chat Completions API's documented request parameters. */
export const CHAT_PARAMS = [
  'model',
  'messages',
  'audio',
  'frequency_penalty',
  'function_call',
  'functions',
  'logit_bias',
  'logprobs',
  'max_completion_tokens',
  'max_tokens',
  'metadata',
  'modalities',
  'n',
  'parallel_tool_calls',
  'prediction',
  'presence_penalty',
  'prompt_cache_key',
  'prompt_cache_retention',
  'reasoning_effort',
  'response_format',
  'safety_identifier',
  'seed',
  'service_tier',
  'stop',
  'store',
  'stream',
  'stream_options',
  'temperature',
  'tool_choice',
  'tools',
  'top_logprobs',
  'top_p',
  'user',
  'verbosity',
  'web_search_options',
] as const;

const MESSAGE_FIELDS: Record<string, readonly string[]> = {
  system: ['role', 'content', 'name'],
  developer: ['role', 'content', 'name'],
  user: ['role', 'content', 'name'],
  assistant: ['role', 'content', 'name', 'refusal', 'audio', 'tool_calls', 'function_call'],
  tool: ['role', 'content', 'tool_call_id'],
  function: ['role', 'content', 'name'],
};

/** Part types each role may send (OpenAI). */
const PART_TYPES: Record<string, readonly string[]> = {
  system: ['text'],
  developer: ['text'],
  user: ['text', 'image_url', 'input_audio', 'file'],
  assistant: ['text', 'refusal'],
  tool: ['text'],
  function: ['text'],
};

const PART_FIELDS: Record<string, readonly string[]> = {
  text: ['type', 'text'],
  image_url: ['type', 'image_url'],
  input_audio: ['type', 'input_audio'],
  file: ['type', 'file'],
  refusal: ['type', 'refusal'],
};

/** DeepSeek's closed sets (what its deserializer takes). */
const DEEPSEEK_ROLES = ['system', 'user', 'assistant', 'tool'];
const DEEPSEEK_PARTS: Record<string, readonly string[]> = {
  system: ['text'],
  user: ['text', 'image_url'],
  assistant: ['text'],
  tool: ['text'],
};

export function checkChat(body: Json, manner: ChatManner): StrictRefusal | null {
  const openai = manner === 'openai';
  if (typeof body.model !== 'string' || !body.model)
    return openai ? openaiError('you must provide a model parameter') : deepseekError('Model Not Exist');
  if (!Array.isArray(body.messages))
    return openai
      ? openaiError("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter')
      : deserializeError('missing field `messages`');
  if (openai) {
    const unknown = Object.keys(body).filter((k) => !(CHAT_PARAMS as readonly string[]).includes(k));
    if (unknown.length)
      return openaiError(
        `Unrecognized request argument${unknown.length > 1 ? 's' : ''} supplied: ${unknown.join(', ')}`,
      );
  }
  return (
    checkMessages(body.messages as unknown[], manner) ??
    checkTools(body, manner) ??
    (openai ? (checkOpenAIParams(body) ?? checkReasoningParams(body)) : null)
  );
}

function checkMessages(messages: unknown[], manner: ChatManner): StrictRefusal | null {
  const openai = manner === 'openai';
  if (messages.length === 0)
    return openai
      ? openaiError(
          "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
          'messages',
          'empty_array',
        )
      : deepseekError('Empty input messages');
  /** Calls of the last assistant message with tool_calls that no tool message answered yet. */
  let pending: { index: number; ids: Set<string> } | null = null;
  for (const [i, m] of messages.entries()) {
    if (!isObject(m))
      return openai
        ? openaiError(`Invalid type for 'messages[${i}]': expected an object.`, `messages[${i}]`, 'invalid_type')
        : deserializeError(`messages[${i}]: invalid type, expected a message`);
    const role = String(m.role);
    const roleOk = openai ? role in MESSAGE_FIELDS : DEEPSEEK_ROLES.includes(role);
    if (!roleOk)
      return openai
        ? openaiError(
            `Invalid value: '${role}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
            `messages[${i}].role`,
            'invalid_value',
          )
        : deserializeError(
            `messages[${i}]: unknown variant \`${role}\`, expected one of ${DEEPSEEK_ROLES.map((r) => `\`${r}\``).join(', ')}`,
          );
    if (openai) {
      const extra = extraKeys(m, MESSAGE_FIELDS[role]);
      if (extra.length) return additional(extra, `messages.${i}`);
    }
    const bad = checkContent(m, i, role, manner) ?? (role === 'assistant' ? checkToolCalls(m, i, manner) : null);
    if (bad) return bad;

    if (role === 'tool') {
      const id = m.tool_call_id;
      if (typeof id !== 'string')
        return openai
          ? openaiError(
              `Missing required parameter: 'messages.[${i}].tool_call_id'.`,
              `messages.[${i}].tool_call_id`,
              'missing_required_parameter',
            )
          : deserializeError(`messages[${i}]: missing field \`tool_call_id\``);
      if (!pending?.ids.has(id))
        return openai
          ? openaiError(
              "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
              `messages.[${i}].role`,
            )
          : deepseekError("Messages with role 'tool' must be a response to a preceding message with 'tool_calls'");
      pending.ids.delete(id);
      continue;
    }
    if (pending && pending.ids.size > 0) return unanswered(pending, manner);
    pending = null;
    if (role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0)
      pending = { index: i, ids: new Set((m.tool_calls as Json[]).map((c) => String(c.id))) };
  }
  if (pending && pending.ids.size > 0) return unanswered(pending, manner);
  return null;
}

function unanswered(p: { index: number; ids: Set<string> }, manner: ChatManner) {
  return manner === 'openai'
    ? openaiError(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...p.ids].join(', ')}`,
        `messages.[${p.index}].role`,
      )
    : deepseekError(
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. (insufficient tool messages following tool_calls message)",
      );
}

function checkContent(m: Json, i: number, role: string, manner: ChatManner): StrictRefusal | null {
  const openai = manner === 'openai';
  const c = m.content;
  if (typeof c === 'string') return null;
  if (c === null || c === undefined) {
    if (role === 'assistant' && (Array.isArray(m.tool_calls) || m.function_call || m.audio)) return null;
    return openai
      ? openaiError(`Invalid value for 'content': expected a string, got null.`, `messages.[${i}].content`)
      : deserializeError(`messages[${i}]: invalid type: null, expected a string or an array of content parts`);
  }
  if (!Array.isArray(c))
    return openai
      ? openaiError(
          `Invalid type for 'messages[${i}].content': expected one of a string or an array of objects, but got an object instead.`,
          `messages[${i}].content`,
          'invalid_type',
        )
      : deserializeError(`messages[${i}].content: invalid type: map, expected a string or an array of content parts`);
  if (openai && c.length === 0 && role !== 'assistant')
    return openaiError(
      `Invalid 'messages[${i}].content': empty array. Expected an array with minimum length 1, but got an empty array instead.`,
      `messages[${i}].content`,
      'empty_array',
    );
  const allowed = openai ? PART_TYPES[role] : DEEPSEEK_PARTS[role];
  for (const [j, p] of c.entries()) {
    const type = isObject(p) ? String(p.type) : typeof p;
    if (!allowed.includes(type)) {
      if (!openai)
        return deserializeError(
          `messages[${i}].content[${j}]: unknown variant \`${type}\`, expected ${allowed.map((t) => `\`${t}\``).join(' or ')}`,
        );
      if (type === 'image_url')
        return openaiError(
          `Invalid 'messages[${i}]'. Image URLs are only allowed for messages with role 'user', but this message with role '${role}' contains an image URL.`,
          `messages[${i}]`,
          'invalid_value',
        );
      return openaiError(
        `Invalid value: '${type}'. Supported values are: ${quoteList([...allowed])}.`,
        `messages[${i}].content[${j}].type`,
        'invalid_value',
      );
    }
    const part = p as Json;
    if (openai) {
      const extra = extraKeys(part, PART_FIELDS[type]);
      if (extra.length) return additional(extra, `messages.${i}.content.${j}`);
    }
    if (type === 'text' && typeof part.text !== 'string')
      return openai
        ? openaiError(
            `Missing required parameter: 'messages[${i}].content[${j}].text'.`,
            `messages[${i}].content[${j}].text`,
            'missing_required_parameter',
          )
        : deserializeError(`messages[${i}].content[${j}]: missing field \`text\``);
    if (type === 'image_url') {
      const url = isObject(part.image_url) ? part.image_url.url : undefined;
      if (typeof url !== 'string' || !/^(https?:|data:image\/[a-z+.-]+;base64,)/.test(url))
        return openai
          ? openaiError(
              `Invalid 'messages[${i}].content[${j}].image_url.url'. Expected a valid URL, but got a value with an invalid format.`,
              `messages[${i}].content[${j}].image_url.url`,
              'invalid_value',
            )
          : deepseekError('Invalid image url');
    }
  }
  return null;
}

function checkToolCalls(m: Json, i: number, manner: ChatManner): StrictRefusal | null {
  const openai = manner === 'openai';
  if (m.tool_calls === undefined) return null;
  if (!Array.isArray(m.tool_calls))
    return openai
      ? openaiError(
          `Invalid type for 'messages[${i}].tool_calls': expected an array of objects.`,
          `messages[${i}].tool_calls`,
          'invalid_type',
        )
      : deserializeError(`messages[${i}].tool_calls: invalid type, expected a sequence`);
  for (const [k, call] of (m.tool_calls as unknown[]).entries()) {
    const at = `messages[${i}].tool_calls[${k}]`;
    if (
      !isObject(call) ||
      typeof call.id !== 'string' ||
      !isObject(call.function) ||
      typeof call.function.name !== 'string'
    )
      return openai
        ? openaiError(`Missing required parameter: '${at}.function'.`, `${at}.function`, 'missing_required_parameter')
        : deserializeError(`${at}: missing field \`function\``);
    if (openai) {
      const extra = extraKeys(call, ['id', 'type', 'function']);
      if (extra.length) return additional(extra, `messages.${i}.tool_calls.${k}`);
      const fnExtra = extraKeys(call.function, ['name', 'arguments']);
      if (fnExtra.length) return additional(fnExtra, `messages.${i}.tool_calls.${k}.function`);
    }
    if (typeof call.function.arguments !== 'string')
      return openai
        ? openaiError(
            `Invalid type for '${at}.function.arguments': expected a string, but got ${call.function.arguments === undefined ? 'nothing' : 'an object'} instead.`,
            `${at}.function.arguments`,
            'invalid_type',
          )
        : deserializeError(`${at}.function.arguments: invalid type: map, expected a string`);
  }
  return null;
}

function checkTools(body: Json, manner: ChatManner): StrictRefusal | null {
  const openai = manner === 'openai';
  const noTools = !Array.isArray(body.tools) || body.tools.length === 0;
  if (openai && noTools) {
    if (Array.isArray(body.tools))
      return openaiError(
        "Invalid 'tools': empty array. Expected an array with minimum length 1, but got an empty array instead.",
        'tools',
        'empty_array',
      );
    if (body.tool_choice !== undefined && body.tool_choice !== 'none')
      return openaiError(
        "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
        'tool_choice',
      );
    if (body.parallel_tool_calls !== undefined)
      return openaiError(
        "Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are specified.",
        'parallel_tool_calls',
      );
  }
  if (body.tools === undefined) return null;
  if (!Array.isArray(body.tools))
    return openai
      ? openaiError("Invalid type for 'tools': expected an array of objects.", 'tools', 'invalid_type')
      : deserializeError('tools: invalid type, expected a sequence');
  for (const [k, t] of (body.tools as unknown[]).entries()) {
    if (!isObject(t) || !isObject(t.function) || typeof t.function.name !== 'string')
      return openai
        ? openaiError(
            `Missing required parameter: 'tools[${k}].function'.`,
            `tools[${k}].function`,
            'missing_required_parameter',
          )
        : deserializeError(`tools[${k}]: missing field \`function\``);
    if (!openai) continue;
    const extra = extraKeys(t, ['type', 'function']);
    if (extra.length) return additional(extra, `tools.${k}`);
    const fnExtra = extraKeys(t.function, ['name', 'description', 'parameters', 'strict']);
    if (fnExtra.length) return additional(fnExtra, `tools.${k}.function`);
    const name = t.function.name;
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name))
      return openaiError(
        `Invalid 'tools[${k}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        `tools[${k}].function.name`,
        'invalid_value',
      );
    if (t.function.parameters !== undefined) {
      const bad = checkFunctionSchema(
        t.function.parameters,
        name,
        `tools[${k}].function.parameters`,
        t.function.strict === true,
      );
      if (bad) return bad;
    }
  }
  return null;
}

function checkOpenAIParams(body: Json): StrictRefusal | null {
  if (body.stream_options !== undefined && body.stream !== true)
    return openaiError("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'stream_options');
  if (body.n !== undefined && (!Number.isInteger(body.n) || (body.n as number) < 1 || (body.n as number) > 128))
    return openaiError(
      `Invalid 'n': integer below minimum value. Expected a value >= 1, but got ${String(body.n)} instead.`,
      'n',
      'integer_below_min_value',
    );
  const rf = body.response_format;
  if (rf !== undefined) {
    if (!isObject(rf) || !['text', 'json_object', 'json_schema'].includes(String(rf.type)))
      return openaiError(
        `Invalid value: '${isObject(rf) ? String(rf.type) : String(rf)}'. Supported values are: 'text', 'json_object', and 'json_schema'.`,
        'response_format.type',
        'invalid_value',
      );
    if (rf.type === 'json_schema') {
      const js = rf.json_schema;
      if (!isObject(js) || typeof js.name !== 'string')
        return openaiError(
          "Missing required parameter: 'response_format.json_schema.name'.",
          'response_format.json_schema.name',
          'missing_required_parameter',
        );
      if (js.schema !== undefined) {
        const bad = checkFunctionSchema(
          js.schema,
          js.name,
          'response_format',
          js.strict === true,
          `response_format '${js.name}'`,
        );
        if (bad) return bad;
      }
    }
  }
  return null;
}

function checkReasoningParams(body: Json): StrictRefusal | null {
  const model = baseModel(body.model);
  if (!isReasoningModel(model)) {
    if (body.reasoning_effort !== undefined)
      return openaiError(
        "Unsupported parameter: 'reasoning_effort' is not supported with this model.",
        'reasoning_effort',
        'unsupported_parameter',
      );
    return null;
  }
  if (body.max_tokens !== undefined)
    return openaiError(
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      'max_tokens',
      'unsupported_parameter',
    );
  for (const p of ['temperature', 'top_p'])
    if (body[p] !== undefined && body[p] !== 1)
      return openaiError(
        `Unsupported value: '${p}' does not support ${String(body[p])} with this model. Only the default (1) value is supported.`,
        p,
        'unsupported_value',
      );
  for (const p of REASONING_REFUSED)
    if (body[p] !== undefined)
      return openaiError(`Unsupported parameter: '${p}' is not supported with this model.`, p, 'unsupported_parameter');
  if (body.reasoning_effort !== undefined) {
    const efforts = effortsOf(model);
    if (!efforts.includes(String(body.reasoning_effort)))
      return openaiError(
        `Unsupported value: 'reasoning_effort' does not support '${String(body.reasoning_effort)}' with this model. Supported values are: ${quoteList(efforts)}.`,
        'reasoning_effort',
        'unsupported_value',
      );
  }
  return null;
}

/** OpenAI's JSON-schema wording for fields a message, part or tool does not have. */
function additional(extra: string[], where: string): StrictRefusal {
  const list = extra.map((k) => `'${k}'`).join(', ');
  return openaiError(
    `Additional properties are not allowed (${list} ${extra.length > 1 ? 'were' : 'was'} unexpected) - '${where}'`,
  );
}

/** DeepSeek's error body (OpenAI's shape, `code` repeating the type). */
function deepseekError(message: string, status = 400): StrictRefusal {
  return {
    status,
    body: { error: { message, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } },
  };
}

/** What DeepSeek answers when the body does not deserialize (a closed role or part set). */
function deserializeError(detail: string): StrictRefusal {
  return deepseekError(`Failed to deserialize the JSON body into the target type: ${detail}`, 422);
}
