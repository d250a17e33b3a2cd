/*
 * Responses API checks (`POST /v1/responses`), as OpenAI makes them: unknown parameters anywhere
 * named by their path, input items of known types and shapes (assistant messages carry
 * `output_text`, user ones `input_*` parts), function tools in the flat Responses shape, tool
 * outputs that answer a call (in the input or, with `previous_response_id`, stored upstream),
 * reasoning items that cannot be looked up with `store: false`, and the reasoning-model rules.
 */
import {
  baseModel,
  checkFunctionSchema,
  effortsOf,
  extraKeys,
  isReasoningModel,
  openaiError,
  quoteList,
} from './openai-common.ts';
import { isObject, type Json, type StrictRefusal } from './types.ts';

export const RESPONSES_PARAMS = [
  'model',
  'input',
  'instructions',
  'previous_response_id',
  'conversation',
  'store',
  'stream',
  'stream_options',
  'background',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'max_output_tokens',
  'max_tool_calls',
  'temperature',
  'top_p',
  'top_logprobs',
  'truncation',
  'reasoning',
  'text',
  'include',
  'metadata',
  'user',
  'safety_identifier',
  'prompt',
  'prompt_cache_key',
  'prompt_cache_retention',
  'service_tier',
  // Tags Codex 0.171 sends with every request (session, thread and turn ids).
  'client_metadata',
] as const;

const INPUT_PARTS = ['input_text', 'input_image', 'input_file', 'input_audio'];
const OUTPUT_PARTS = ['output_text', 'refusal'];
const PART_FIELDS: Record<string, readonly string[]> = {
  input_text: ['type', 'text'],
  input_image: ['type', 'image_url', 'file_id', 'detail'],
  input_file: ['type', 'file_id', 'file_data', 'file_url', 'filename'],
  input_audio: ['type', 'input_audio'],
  output_text: ['type', 'text', 'annotations', 'logprobs'],
  refusal: ['type', 'refusal'],
};

const ITEM_FIELDS: Record<string, readonly string[]> = {
  message: ['type', 'role', 'content', 'id', 'status'],
  // `namespace`: a call to a tool of a namespace tool, `name` being the tool's own name.
  function_call: ['type', 'id', 'call_id', 'name', 'namespace', 'arguments', 'status'],
  function_call_output: ['type', 'id', 'call_id', 'output', 'status'],
  reasoning: ['type', 'id', 'summary', 'content', 'encrypted_content', 'status'],
  item_reference: ['type', 'id'],
};

/** Built-in tool items the fake takes as they are (it never produces them). */
const OTHER_ITEMS = [
  'custom_tool_call',
  'custom_tool_call_output',
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'code_interpreter_call',
  'image_generation_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'mcp_call',
  'compaction',
];

const unknownParam = (path: string) => openaiError(`Unknown parameter: '${path}'.`, path, 'unknown_parameter');
const missing = (path: string) =>
  openaiError(`Missing required parameter: '${path}'.`, path, 'missing_required_parameter');

export function checkResponses(body: Json): StrictRefusal | null {
  const unknown = Object.keys(body).find((k) => !(RESPONSES_PARAMS as readonly string[]).includes(k));
  if (unknown !== undefined) return unknownParam(unknown);
  if (typeof body.model !== 'string' || !body.model) return missing('model');
  return checkInput(body) ?? checkTools(body.tools) ?? checkText(body.text) ?? checkReasoning(body);
}

function checkInput(body: Json): StrictRefusal | null {
  const input = body.input;
  if (input === undefined || typeof input === 'string') return null;
  if (!Array.isArray(input))
    return openaiError(
      "Invalid type for 'input': expected one of a string or array of input items.",
      'input',
      'invalid_type',
    );
  const calls = new Set<string>();
  for (const [i, raw] of input.entries()) {
    const at = `input[${i}]`;
    if (!isObject(raw)) return openaiError(`Invalid type for '${at}': expected an object.`, at, 'invalid_type');
    const type = raw.type === undefined && raw.role !== undefined ? 'message' : String(raw.type);
    if (OTHER_ITEMS.includes(type)) continue;
    const fields = ITEM_FIELDS[type];
    if (!fields)
      return openaiError(
        `Invalid value: '${type}'. Supported values are: ${quoteList(['message', ...Object.keys(ITEM_FIELDS).slice(1), ...OTHER_ITEMS])}.`,
        `${at}.type`,
        'invalid_value',
      );
    // Codex 0.171 tags every item it sends to OpenAI with `internal_chat_message_metadata_passthrough`.
    const extra = extraKeys(raw, [...fields, 'internal_chat_message_metadata_passthrough']);
    if (extra.length) return unknownParam(`${at}.${extra[0]}`);
    const bad =
      type === 'message'
        ? checkMessage(raw, at)
        : type === 'function_call'
          ? checkCall(raw, at, calls)
          : type === 'function_call_output'
            ? checkOutput(raw, at, calls, body.previous_response_id)
            : type === 'reasoning'
              ? checkReasoningItem(raw, at, body.store)
              : typeof raw.id === 'string'
                ? null
                : missing(`${at}.id`);
    if (bad) return bad;
  }
  return null;
}

function checkMessage(m: Json, at: string): StrictRefusal | null {
  const role = String(m.role);
  if (!['user', 'assistant', 'system', 'developer'].includes(role))
    return openaiError(
      `Invalid value: '${role}'. Supported values are: 'assistant', 'system', 'developer', and 'user'.`,
      `${at}.role`,
      'invalid_value',
    );
  if (typeof m.content === 'string') return null;
  if (!Array.isArray(m.content)) return missing(`${at}.content`);
  const allowed = role === 'assistant' ? OUTPUT_PARTS : INPUT_PARTS;
  for (const [j, p] of m.content.entries()) {
    const pat = `${at}.content[${j}]`;
    const type = isObject(p) ? String(p.type) : typeof p;
    if (!allowed.includes(type))
      return openaiError(
        `Invalid value: '${type}'. Supported values are: ${quoteList(allowed)}.`,
        `${pat}.type`,
        'invalid_value',
      );
    const extra = extraKeys(p as Json, PART_FIELDS[type]);
    if (extra.length) return unknownParam(`${pat}.${extra[0]}`);
    const part = p as Json;
    if ((type === 'input_text' || type === 'output_text') && typeof part.text !== 'string')
      return missing(`${pat}.text`);
    if (type === 'input_image' && typeof part.image_url !== 'string' && typeof part.file_id !== 'string')
      return openaiError(
        `Invalid '${pat}': one of 'image_url' or 'file_id' must be provided.`,
        pat,
        'missing_required_parameter',
      );
  }
  return null;
}

function checkCall(c: Json, at: string, calls: Set<string>): StrictRefusal | null {
  for (const f of ['call_id', 'name', 'arguments']) if (typeof c[f] !== 'string') return missing(`${at}.${f}`);
  calls.add(c.call_id as string);
  return null;
}

function checkOutput(o: Json, at: string, calls: Set<string>, previous: unknown): StrictRefusal | null {
  if (typeof o.call_id !== 'string') return missing(`${at}.call_id`);
  if (o.output === undefined) return missing(`${at}.output`);
  if (Array.isArray(o.output)) {
    for (const [j, p] of o.output.entries()) {
      const type = isObject(p) ? String(p.type) : typeof p;
      if (!['input_text', 'input_image', 'input_file'].includes(type))
        return openaiError(
          `Invalid value: '${type}'. Supported values are: 'input_text', 'input_image', and 'input_file'.`,
          `${at}.output[${j}].type`,
          'invalid_value',
        );
    }
  } else if (typeof o.output !== 'string')
    return openaiError(
      `Invalid type for '${at}.output': expected one of a string or array of input items.`,
      `${at}.output`,
      'invalid_type',
    );
  // With previous_response_id the call may sit in the stored response (the fake keeps none to check).
  if (!calls.has(o.call_id) && typeof previous !== 'string')
    return openaiError(`No tool call found for function call output with call_id ${o.call_id}.`, 'input');
  return null;
}

function checkReasoningItem(r: Json, at: string, store: unknown): StrictRefusal | null {
  if (typeof r.id !== 'string') return missing(`${at}.id`);
  if (!Array.isArray(r.summary)) return missing(`${at}.summary`);
  for (const [j, s] of r.summary.entries())
    if (!isObject(s) || s.type !== 'summary_text' || typeof s.text !== 'string')
      return openaiError(`Invalid value for '${at}.summary[${j}]'.`, `${at}.summary[${j}]`, 'invalid_value');
  // Without its encrypted content a reasoning item is looked up by id, and nothing was stored.
  if (store === false && typeof r.encrypted_content !== 'string')
    return openaiError(
      `Item with id '${r.id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
      'input',
    );
  return null;
}

function checkTools(tools: unknown): StrictRefusal | null {
  if (tools === undefined) return null;
  if (!Array.isArray(tools))
    return openaiError("Invalid type for 'tools': expected an array of objects.", 'tools', 'invalid_type');
  for (const [k, t] of tools.entries()) {
    const at = `tools[${k}]`;
    if (!isObject(t)) return openaiError(`Invalid type for '${at}': expected an object.`, at, 'invalid_type');
    if (t.type === 'namespace') {
      if (typeof t.name !== 'string') return missing(`${at}.name`);
      if (!Array.isArray(t.tools)) return missing(`${at}.tools`);
      // Its function tools are checked as top-level ones are (the error names them by their place there).
      const bad = checkTools(t.tools);
      if (bad) return bad;
      continue;
    }
    if (t.type !== 'function') continue;
    // Chat's nested {type, function: {...}} is not the Responses shape.
    if (typeof t.name !== 'string') return missing(`${at}.name`);
    const extra = extraKeys(t, ['type', 'name', 'description', 'parameters', 'strict']);
    if (extra.length) return unknownParam(`${at}.${extra[0]}`);
    if (t.parameters !== undefined && t.parameters !== null) {
      const bad = checkFunctionSchema(t.parameters, t.name, `${at}.parameters`, t.strict === true);
      if (bad) return bad;
    }
  }
  return null;
}

function checkText(text: unknown): StrictRefusal | null {
  if (!isObject(text)) return null;
  const extra = extraKeys(text, ['format', 'verbosity']);
  if (extra.length) return unknownParam(`text.${extra[0]}`);
  const f = text.format;
  if (!isObject(f)) return null;
  if (!['text', 'json_object', 'json_schema'].includes(String(f.type)))
    return openaiError(
      `Invalid value: '${String(f.type)}'. Supported values are: 'text', 'json_object', and 'json_schema'.`,
      'text.format.type',
      'invalid_value',
    );
  if (f.type === 'json_schema') {
    if (typeof f.name !== 'string') return missing('text.format.name');
    if (!isObject(f.schema)) return missing('text.format.schema');
    const extraF = extraKeys(f, ['type', 'name', 'schema', 'strict', 'description']);
    if (extraF.length) return unknownParam(`text.format.${extraF[0]}`);
    return checkFunctionSchema(
      f.schema,
      f.name,
      'text.format.schema',
      f.strict === true,
      `response_format '${f.name}'`,
    );
  }
  return null;
}

function checkReasoning(body: Json): StrictRefusal | null {
  const model = baseModel(body.model);
  const reasoning = body.reasoning;
  if (reasoning !== undefined && reasoning !== null && !isObject(reasoning))
    return openaiError("Invalid type for 'reasoning': expected an object.", 'reasoning', 'invalid_type');
  if (isObject(reasoning)) {
    const extra = extraKeys(reasoning, ['effort', 'summary', 'generate_summary']);
    if (extra.length) return unknownParam(`reasoning.${extra[0]}`);
  }
  if (!isReasoningModel(model)) {
    if (isObject(reasoning) && reasoning.effort !== undefined && reasoning.effort !== null)
      return openaiError(
        "Unsupported parameter: 'reasoning.effort' is not supported with this model.",
        'reasoning.effort',
        'unsupported_parameter',
      );
    return null;
  }
  for (const p of ['temperature', 'top_p'])
    if (body[p] !== undefined && body[p] !== null)
      return openaiError(`Unsupported parameter: '${p}' is not supported with this model.`, p, 'unsupported_parameter');
  if (isObject(reasoning) && reasoning.effort !== undefined && reasoning.effort !== null) {
    const efforts = effortsOf(model);
    if (!efforts.includes(String(reasoning.effort)))
      return openaiError(
        `Unsupported value: 'reasoning.effort' does not support '${String(reasoning.effort)}' with this model. Supported values are: ${quoteList(efforts)}.`,
        'reasoning.effort',
        'unsupported_value',
      );
  }
  return null;
}
