/*
 * Anthropic Messages checks (`POST /v1/messages` and `/v1/messages/count_tokens`), as the real API
 * makes them: pydantic's "Extra inputs are not permitted" for any field it does not know (top level,
 * blocks, tools, cache_control), required fields, block types and image/document sources, tool ids
 * and inputs, tool_use/tool_result pairing across (merged) turns, at most 4 cache breakpoints, the
 * extended-thinking constraints, and thinking blocks: present where required and carrying a
 * signature this fake issued (strict/signatures.ts) for exactly their text.
 */
import { isIssuedRedactedData, isIssuedThinkingSignature } from './signatures.ts';
import { isObject, type Json, type StrictRefusal, type StrictValidator } from './types.ts';

export function anthropicError(message: string, status = 400): StrictRefusal {
  return {
    status,
    body: { type: 'error', error: { type: 'invalid_request_error', message }, request_id: 'req_strict_fake' },
  };
}

const CREATE_FIELDS = [
  'model',
  'messages',
  'max_tokens',
  'system',
  'metadata',
  'stop_sequences',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'tools',
  'tool_choice',
  'thinking',
  'service_tier',
  'container',
  'mcp_servers',
  'context_management',
  'output_config',
  'output_format',
  'inference_geo',
];
const COUNT_FIELDS = [
  'model',
  'messages',
  'system',
  'tools',
  'tool_choice',
  'thinking',
  'mcp_servers',
  'context_management',
  'output_config',
  'output_format',
];

const BLOCK_FIELDS: Record<string, readonly string[]> = {
  text: ['type', 'text', 'cache_control', 'citations'],
  image: ['type', 'source', 'cache_control'],
  document: ['type', 'source', 'title', 'context', 'citations', 'cache_control'],
  search_result: ['type', 'source', 'title', 'content', 'citations', 'cache_control'],
  tool_use: ['type', 'id', 'name', 'input', 'cache_control'],
  tool_result: ['type', 'tool_use_id', 'content', 'is_error', 'cache_control'],
  thinking: ['type', 'thinking', 'signature'],
  redacted_thinking: ['type', 'data'],
  server_tool_use: ['type', 'id', 'name', 'input', 'cache_control'],
};
/** Server-tool result blocks the fake takes as they are (it never produces them). */
const OTHER_BLOCKS = [
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'container_upload',
];
const USER_BLOCKS = ['text', 'image', 'document', 'search_result', 'tool_result', 'container_upload'];
const ALL_TAGS = [...Object.keys(BLOCK_FIELDS), ...OTHER_BLOCKS];
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const THINKING_DOCS = 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

const extra = (path: string) => anthropicError(`${path}: Extra inputs are not permitted`);
const required = (path: string) => anthropicError(`${path}: Field required`);
const tags = (list: readonly string[]) => list.map((t) => `'${t}'`).join(', ');
const badTag = (path: string, tag: unknown, expected: readonly string[]) =>
  anthropicError(
    `${path}: Input tag '${String(tag)}' found using 'type' does not match any of the expected tags: ${tags(expected)}`,
  );

/** The first field of `o` not in `allowed`, as pydantic reports it (`path` empty at the top level). */
function extraField(o: Json, allowed: readonly string[], path: string): StrictRefusal | null {
  const k = Object.keys(o).find((key) => !allowed.includes(key));
  return k === undefined ? null : extra(path ? `${path}.${k}` : k);
}

export const validateAnthropic: StrictValidator = (path, headers, body) => {
  const route = path.split('?')[0];
  if (route !== '/v1/messages' && route !== '/v1/messages/count_tokens') return null;
  if (!headers['anthropic-version']) return anthropicError('anthropic-version: header is required');
  const count = route.endsWith('/count_tokens');
  const beta = String(headers['anthropic-beta'] ?? '');
  const interleaved = beta.includes('interleaved-thinking');
  // Claude Code 2.1 asks for this beta and puts a `system` message between turns (agent listings).
  const midSystem = beta.includes('mid-conversation-system');
  return (
    extraField(body, count ? COUNT_FIELDS : CREATE_FIELDS, '') ??
    checkTopLevel(body, count) ??
    checkSystem(body.system) ??
    checkTools(body) ??
    checkThinkingConfig(body, count, interleaved) ??
    checkMessages(body.messages as unknown[], midSystem) ??
    checkCacheBreakpoints(body) ??
    checkConversation(body.messages as Json[], thinkingOn(body))
  );
};

const thinkingOn = (body: Json) =>
  isObject(body.thinking) && (body.thinking.type === 'enabled' || body.thinking.type === 'adaptive');

function checkTopLevel(body: Json, count: boolean): StrictRefusal | null {
  if (typeof body.model !== 'string') return required('model');
  if (!Array.isArray(body.messages)) return required('messages');
  if (!count) {
    if (body.max_tokens === undefined) return required('max_tokens');
    if (!Number.isInteger(body.max_tokens)) return anthropicError('max_tokens: Input should be a valid integer');
    if ((body.max_tokens as number) < 1)
      return anthropicError('max_tokens: Input should be greater than or equal to 1');
    if (typeof body.temperature === 'number' && (body.temperature < 0 || body.temperature > 1))
      return anthropicError(
        `temperature: Input should be ${body.temperature < 0 ? 'greater than or equal to 0' : 'less than or equal to 1'}`,
      );
    if (body.stop_sequences !== undefined && !Array.isArray(body.stop_sequences))
      return anthropicError('stop_sequences: Input should be a valid list');
  }
  if (body.metadata !== undefined) {
    if (!isObject(body.metadata)) return anthropicError('metadata: Input should be a valid dictionary');
    const bad = extraField(body.metadata, ['user_id'], 'metadata');
    if (bad) return bad;
  }
  if (isObject(body.output_config)) {
    const bad = extraField(body.output_config, ['effort', 'format'], 'output_config');
    if (bad) return bad;
  }
  if (body.messages.length === 0) return anthropicError('messages: at least one message is required');
  return null;
}

function checkSystem(system: unknown): StrictRefusal | null {
  if (system === undefined || typeof system === 'string') return null;
  if (!Array.isArray(system)) return anthropicError('system: Input should be a valid string');
  for (const [i, b] of system.entries()) {
    if (!isObject(b) || b.type !== 'text') return anthropicError(`system.${i}.type: Input should be 'text'`);
    const bad = extraField(b, BLOCK_FIELDS.text, `system.${i}`) ?? checkCacheControl(b, `system.${i}`);
    if (bad) return bad;
    if (typeof b.text !== 'string' || b.text === '')
      return anthropicError('system: text content blocks must be non-empty');
  }
  return null;
}

function checkCacheControl(block: Json, path: string): StrictRefusal | null {
  const cc = block.cache_control;
  if (cc === undefined || cc === null) return null;
  if (!isObject(cc) || cc.type !== 'ephemeral')
    return badTag(`${path}.cache_control`, isObject(cc) ? cc.type : cc, ['ephemeral']);
  const bad = extraField(cc, ['type', 'ttl'], `${path}.cache_control.ephemeral`);
  if (bad) return bad;
  if (cc.ttl !== undefined && cc.ttl !== '5m' && cc.ttl !== '1h')
    return anthropicError(`${path}.cache_control.ephemeral.ttl: Input should be '5m' or '1h'`);
  return null;
}

const JSON_SCHEMA_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/** A JSON Schema whose `type`s are all JSON Schema's names (OpenAPI's "STRING" is not). */
function validJsonSchema(s: unknown): boolean {
  if (Array.isArray(s)) return s.every(validJsonSchema);
  if (!isObject(s)) return true;
  const types = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
  if (!types.every((t) => typeof t === 'string' && JSON_SCHEMA_TYPES.has(t))) return false;
  for (const [k, v] of Object.entries(s))
    if (k === 'properties' || k === '$defs' || k === 'definitions') {
      if (isObject(v) && !Object.values(v).every(validJsonSchema)) return false;
    } else if (['items', 'anyOf', 'oneOf', 'allOf', 'not', 'additionalProperties'].includes(k) && !validJsonSchema(v))
      return false;
  return true;
}

function checkTools(body: Json): StrictRefusal | null {
  const tools = body.tools;
  if (tools !== undefined) {
    if (!Array.isArray(tools)) return anthropicError('tools: Input should be a valid list');
    const names = new Set<string>();
    for (const [k, t] of tools.entries()) {
      if (!isObject(t)) return anthropicError(`tools.${k}: Input should be a valid dictionary`);
      // Server tools (web_search_20250305, bash_20250124...) are versioned by date; taken as they are.
      if (typeof t.type === 'string' && t.type !== 'custom') {
        if (!/_\d{8}$/.test(t.type))
          return badTag(`tools.${k}`, t.type, ['custom', 'web_search_20250305', 'bash_20250124']);
        continue;
      }
      const at = `tools.${k}.custom`;
      const bad =
        extraField(t, ['type', 'name', 'description', 'input_schema', 'cache_control', 'strict'], at) ??
        checkCacheControl(t, at);
      if (bad) return bad;
      if (typeof t.name !== 'string') return required(`${at}.name`);
      if (!/^[a-zA-Z0-9_-]{1,128}$/.test(t.name))
        return anthropicError(`${at}.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`);
      if (names.has(t.name)) return anthropicError('tools: Tool names must be unique.');
      names.add(t.name);
      if (t.input_schema === undefined) return required(`${at}.input_schema`);
      if (!isObject(t.input_schema)) return anthropicError(`${at}.input_schema: Input should be a valid dictionary`);
      if (t.input_schema.type !== 'object') return anthropicError(`${at}.input_schema.type: Input should be 'object'`);
      if (!validJsonSchema(t.input_schema))
        return anthropicError(
          `${at}.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). Learn more about tool use at https://docs.claude.com/en/docs/tool-use.`,
        );
    }
  }
  const tc = body.tool_choice;
  if (tc !== undefined) {
    if (!isObject(tc) || !['auto', 'any', 'tool', 'none'].includes(String(tc.type)))
      return badTag('tool_choice', isObject(tc) ? tc.type : tc, ['auto', 'any', 'tool', 'none']);
    const fields =
      tc.type === 'tool'
        ? ['type', 'name', 'disable_parallel_tool_use']
        : tc.type === 'none'
          ? ['type']
          : ['type', 'disable_parallel_tool_use'];
    const bad = extraField(tc, fields, `tool_choice.${String(tc.type)}`);
    if (bad) return bad;
    if (tc.type === 'tool' && typeof tc.name !== 'string') return required('tool_choice.tool.name');
  }
  return null;
}

function checkThinkingConfig(body: Json, count: boolean, interleaved: boolean): StrictRefusal | null {
  const t = body.thinking;
  if (t === undefined) return null;
  if (!isObject(t) || !['enabled', 'disabled', 'adaptive'].includes(String(t.type)))
    return badTag('thinking', isObject(t) ? t.type : t, ['enabled', 'disabled', 'adaptive']);
  const bad = extraField(t, t.type === 'enabled' ? ['type', 'budget_tokens'] : ['type'], `thinking.${String(t.type)}`);
  if (bad) return bad;
  if (t.type === 'disabled') return null;
  if (t.type === 'enabled') {
    if (t.budget_tokens === undefined) return required('thinking.enabled.budget_tokens');
    if (!Number.isInteger(t.budget_tokens))
      return anthropicError('thinking.enabled.budget_tokens: Input should be a valid integer');
    if ((t.budget_tokens as number) < 1024)
      return anthropicError('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
    if (!count && !interleaved && (body.max_tokens as number) <= (t.budget_tokens as number))
      return anthropicError(
        `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${THINKING_DOCS}#max-tokens-and-context-window-size`,
      );
  }
  const compat = `Please consult our documentation at ${THINKING_DOCS}#feature-compatibility`;
  if (body.temperature !== undefined && body.temperature !== 1)
    return anthropicError(`\`temperature\` may only be set to 1 when thinking is enabled. ${compat}`);
  if (body.top_k !== undefined) return anthropicError(`\`top_k\` may not be set when thinking is enabled. ${compat}`);
  if (typeof body.top_p === 'number' && body.top_p < 0.95)
    return anthropicError(
      `\`top_p\` must be greater than or equal to 0.95 or unset when thinking is enabled. ${compat}`,
    );
  if (isObject(body.tool_choice) && (body.tool_choice.type === 'any' || body.tool_choice.type === 'tool'))
    return anthropicError('Thinking may not be enabled when tool_choice forces tool use.');
  return null;
}

function checkMessages(messages: unknown[], midSystem: boolean): StrictRefusal | null {
  for (const [i, m] of messages.entries()) {
    const at = `messages.${i}`;
    if (!isObject(m)) return anthropicError(`${at}: Input should be a valid dictionary`);
    const bad = extraField(m, ['role', 'content'], at);
    if (bad) return bad;
    if (midSystem && m.role === 'system') {
      const text = typeof m.content === 'string' || (Array.isArray(m.content) && m.content.every(isTextBlock));
      if (!text) return anthropicError(`${at}.content: a \`system\` message holds text only`);
      continue;
    }
    if (m.role !== 'user' && m.role !== 'assistant')
      return anthropicError(`${at}.role: Input should be 'user' or 'assistant'`);
    if (m.content === undefined) return required(`${at}.content`);
    const last = i === messages.length - 1;
    if (typeof m.content === 'string') {
      if (m.content === '' && !(last && m.role === 'assistant'))
        return anthropicError(
          `${at}: all messages must have non-empty content except for the optional final assistant message`,
        );
      continue;
    }
    if (!Array.isArray(m.content)) return anthropicError(`${at}.content: Input should be a valid list`);
    if (m.content.length === 0 && !(last && m.role === 'assistant'))
      return anthropicError(
        `${at}: all messages must have non-empty content except for the optional final assistant message`,
      );
    for (const [j, b] of m.content.entries()) {
      const r = checkBlock(b, `${at}.content.${j}`, m.role);
      if (r) return r;
    }
  }
  const last = messages.at(-1) as Json;
  if (last.role === 'assistant') {
    const c = last.content;
    const tail = typeof c === 'string' ? c : Array.isArray(c) ? (c.at(-1) as Json | undefined)?.text : undefined;
    if (typeof tail === 'string' && tail !== '' && /\s$/.test(tail))
      return anthropicError('messages: final assistant content cannot end with trailing whitespace');
  }
  return null;
}

function checkBlock(b: unknown, at: string, role: string): StrictRefusal | null {
  if (!isObject(b)) return anthropicError(`${at}: Input should be a valid dictionary`);
  const type = String(b.type);
  if (!ALL_TAGS.includes(type)) return badTag(at, b.type, ALL_TAGS);
  if (OTHER_BLOCKS.includes(type)) return null;
  const allowedHere =
    role === 'user'
      ? USER_BLOCKS.includes(type)
      : !['tool_result', 'image', 'document', 'search_result'].includes(type);
  if (!allowedHere) return anthropicError(`${at}: \`${type}\` blocks are not allowed in \`${role}\` messages`);
  const bad = extraField(b, BLOCK_FIELDS[type], `${at}.${type}`) ?? checkCacheControl(b, `${at}.${type}`);
  if (bad) return bad;
  switch (type) {
    case 'text':
      if (typeof b.text !== 'string') return required(`${at}.text.text`);
      if (b.text === '') return anthropicError('messages: text content blocks must be non-empty');
      return null;
    case 'image':
      return checkImageSource(b.source, `${at}.image.source`);
    case 'document':
      return checkDocumentSource(b.source, `${at}.document.source`);
    case 'tool_use':
    case 'server_tool_use':
      if (typeof b.id !== 'string') return required(`${at}.${type}.id`);
      if (!/^[a-zA-Z0-9_-]+$/.test(b.id))
        return anthropicError(`${at}.${type}.id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
      if (typeof b.name !== 'string') return required(`${at}.${type}.name`);
      if (!isObject(b.input)) return anthropicError(`${at}.${type}.input: Input should be a valid dictionary`);
      return null;
    case 'tool_result':
      return checkToolResult(b, at);
    case 'thinking':
      if (typeof b.thinking !== 'string') return required(`${at}.thinking.thinking`);
      if (typeof b.signature !== 'string') return required(`${at}.thinking.signature`);
      return null;
    case 'redacted_thinking':
      if (typeof b.data !== 'string') return required(`${at}.redacted_thinking.data`);
      return null;
  }
  return null;
}

function checkToolResult(b: Json, at: string): StrictRefusal | null {
  if (typeof b.tool_use_id !== 'string') return required(`${at}.tool_result.tool_use_id`);
  if (b.is_error !== undefined && typeof b.is_error !== 'boolean')
    return anthropicError(`${at}.tool_result.is_error: Input should be a valid boolean`);
  const c = b.content;
  if (c === undefined || typeof c === 'string') return null;
  if (!Array.isArray(c)) return anthropicError(`${at}.tool_result.content: Input should be a valid list`);
  const inner = ['text', 'image', 'document', 'search_result'];
  for (const [k, x] of c.entries()) {
    const p = `${at}.tool_result.content.${k}`;
    if (!isObject(x) || !inner.includes(String(x.type))) return badTag(p, isObject(x) ? x.type : x, inner);
    const r = checkBlock(x, p, 'user');
    if (r) return r;
  }
  return null;
}

/** The format a base64 image really is, from its first bytes. */
function sniffImage(data: string): string | undefined {
  const head = Buffer.from(data.slice(0, 24), 'base64');
  if (head.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))) return 'image/png';
  if (head.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))) return 'image/jpeg';
  if (head.subarray(0, 4).toString('latin1') === 'GIF8') return 'image/gif';
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  return undefined;
}

function checkImageSource(src: unknown, at: string): StrictRefusal | null {
  if (!isObject(src) || !['base64', 'url', 'file'].includes(String(src.type)))
    return badTag(at, isObject(src) ? src.type : src, ['base64', 'file', 'url']);
  if (src.type === 'url')
    return (
      extraField(src, ['type', 'url'], `${at}.url`) ?? (typeof src.url === 'string' ? null : required(`${at}.url.url`))
    );
  if (src.type === 'file') return extraField(src, ['type', 'file_id'], `${at}.file`);
  const bad = extraField(src, ['type', 'media_type', 'data'], `${at}.base64`);
  if (bad) return bad;
  if (!IMAGE_TYPES.includes(String(src.media_type)))
    return anthropicError(
      `${at}.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`,
    );
  if (typeof src.data !== 'string' || src.data === '') return required(`${at}.base64.data`);
  const real = sniffImage(src.data);
  if (!real) return anthropicError(`${at}.base64.data: Could not process image`);
  if (real !== src.media_type)
    return anthropicError(
      `${at}.base64.data: The image was specified using the ${String(src.media_type)} media type, but the image appears to be a ${real} image`,
    );
  return null;
}

function checkDocumentSource(src: unknown, at: string): StrictRefusal | null {
  const kinds = ['base64', 'text', 'content', 'url', 'file'];
  if (!isObject(src) || !kinds.includes(String(src.type))) return badTag(at, isObject(src) ? src.type : src, kinds);
  if (src.type === 'base64') {
    const bad = extraField(src, ['type', 'media_type', 'data'], `${at}.base64`);
    if (bad) return bad;
    if (src.media_type !== 'application/pdf')
      return anthropicError(`${at}.base64.media_type: Input should be 'application/pdf'`);
    if (typeof src.data !== 'string' || src.data === '') return required(`${at}.base64.data`);
  }
  if (src.type === 'text') {
    const bad = extraField(src, ['type', 'media_type', 'data'], `${at}.text`);
    if (bad) return bad;
    if (src.media_type !== 'text/plain') return anthropicError(`${at}.text.media_type: Input should be 'text/plain'`);
  }
  return null;
}

function checkCacheBreakpoints(body: Json): StrictRefusal | null {
  let n = 0;
  const count = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(count);
    else if (isObject(v)) {
      if (v.cache_control) n++;
      if (Array.isArray(v.content)) count(v.content);
    }
  };
  count(body.system);
  count(body.tools);
  count(body.messages);
  return n > 4 ? anthropicError(`A maximum of 4 blocks with cache_control may be provided. Found ${n}.`) : null;
}

interface Placed {
  block: Json;
  /** Where it is in the request, e.g. `messages.3.content.1`. */
  at: string;
  message: number;
}

interface Turn {
  role: string;
  /** The first message of the turn (consecutive same-role messages merge into one turn). */
  first: number;
  blocks: Placed[];
}

const isTextBlock = (b: unknown) => isObject(b) && b.type === 'text' && typeof b.text === 'string' && b.text !== '';

/** The conversation's turns; `system` messages between them (mid-conversation-system beta) are not turns. */
function turnsOf(messages: Json[]): Turn[] {
  const turns: Turn[] = [];
  messages.forEach((m, i) => {
    if (m.role === 'system') return;
    const blocks: Placed[] =
      typeof m.content === 'string'
        ? [{ block: { type: 'text', text: m.content }, at: `messages.${i}.content`, message: i }]
        : (m.content as Json[]).map((block, j) => ({ block, at: `messages.${i}.content.${j}`, message: i }));
    const prev = turns.at(-1);
    if (prev && prev.role === m.role) prev.blocks.push(...blocks);
    else turns.push({ role: String(m.role), first: i, blocks });
  });
  return turns;
}

function checkConversation(messages: Json[], thinking: boolean): StrictRefusal | null {
  const turns = turnsOf(messages);
  for (const [t, turn] of turns.entries()) {
    const prev = turns[t - 1];
    const next = turns[t + 1];
    if (turn.role === 'user') {
      const uses = new Set(
        prev?.role === 'assistant'
          ? prev.blocks.filter((b) => b.block.type === 'tool_use').map((b) => String(b.block.id))
          : [],
      );
      for (const b of turn.blocks)
        if (b.block.type === 'tool_result' && !uses.has(String(b.block.tool_use_id)))
          return anthropicError(
            `${b.at}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(b.block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
          );
      continue;
    }
    const uses = turn.blocks.filter((b) => b.block.type === 'tool_use');
    if (uses.length === 0 || !next) continue;
    // The results must open the next turn: anything else before them leaves the calls unanswered.
    const leading = new Set<string>();
    for (const b of next.blocks) {
      if (b.block.type !== 'tool_result') break;
      leading.add(String(b.block.tool_use_id));
    }
    const missing = uses.filter((u) => !leading.has(String(u.block.id)));
    if (missing.length)
      return anthropicError(
        `messages.${missing[0].message}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.map((u) => String(u.block.id)).join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
  }
  return checkThinkingBlocks(turns, thinking);
}

function checkThinkingBlocks(turns: Turn[], thinking: boolean): StrictRefusal | null {
  for (const turn of turns)
    for (const b of turn.blocks) {
      if (b.block.type === 'thinking' && !isIssuedThinkingSignature(b.block.signature, b.block.thinking))
        return anthropicError(`${b.at}: Invalid \`signature\` in \`thinking\` block`);
      if (b.block.type === 'redacted_thinking' && !isIssuedRedactedData(b.block.data))
        return anthropicError(`${b.at}: Invalid \`data\` in \`redacted_thinking\` block`);
    }
  const last = turns.at(-1);
  if (!thinking) {
    const t =
      last?.role === 'assistant'
        ? last.blocks.find((b) => b.block.type === 'thinking' || b.block.type === 'redacted_thinking')
        : undefined;
    return t
      ? anthropicError(
          `${t.at}: When thinking is disabled, an \`assistant\` message in the final position cannot contain \`thinking\`. To use thinking blocks, enable \`thinking\` in your request.`,
        )
      : null;
  }
  // In a tool loop (the request ends with tool results), the assistant turn that opened the loop
  // after the user's last own words must start with its (signed) thinking.
  if (last?.role !== 'user' || !last.blocks.some((b) => b.block.type === 'tool_result')) return null;
  let start = turns.length - 1;
  while (
    start > 0 &&
    !(turns[start].role === 'user' && turns[start].blocks.some((b) => b.block.type !== 'tool_result'))
  )
    start--;
  const opener = turns.slice(start).find((t) => t.role === 'assistant');
  const first = opener?.blocks[0];
  if (!opener || !first) return null;
  if (first.block.type !== 'thinking' && first.block.type !== 'redacted_thinking')
    return anthropicError(
      `messages.${opener.first}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${String(first.block.type)}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${THINKING_DOCS}`,
    );
  return null;
}
