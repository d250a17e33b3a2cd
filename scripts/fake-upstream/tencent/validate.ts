/*
 * What Hunyuan's ChatCompletions and GetEmbedding refuse (Tencent's documented parameter rules),
 * as Tencent names it: UnknownParameter, MissingParameter, InvalidParameter, InvalidParameterValue.
 */
type Json = Record<string, unknown>;
export type TencentRefusal = { code: string; message: string };

const CHAT_FIELDS = new Set([
  'Model',
  'Messages',
  'Stream',
  'StreamModeration',
  'TopP',
  'Temperature',
  'EnableEnhancement',
  'Tools',
  'ToolChoice',
  'CustomTool',
  'SearchInfo',
  'Citation',
  'EnableSpeedSearch',
  'EnableMultimedia',
  'EnableDeepSearch',
  'Seed',
  'ForceSearchEnhancement',
  'Stop',
  'EnableRecommendedQuestions',
  'EnableDeepRead',
  'WebSearchOptions',
  'TopicChoice',
  'EnableThinking',
]);
const MESSAGE_FIELDS = new Set([
  'Role',
  'Content',
  'Contents',
  'ToolCallId',
  'ToolCalls',
  'FileIDs',
  'ReasoningContent',
]);

const unknown = (name: string): TencentRefusal => ({
  code: 'UnknownParameter',
  message: `The parameter \`${name}\` is not recognized.`,
});
const invalid = (message: string): TencentRefusal => ({ code: 'InvalidParameter', message });
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkTools(body: Json): TencentRefusal | null {
  const tools = body.Tools;
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return invalid('Tools must be an array.');
  for (const [i, t] of tools.entries()) {
    const f = isObject(t) ? t.Function : undefined;
    if (!isObject(t) || t.Type !== 'function' || !isObject(f) || typeof f.Name !== 'string')
      return invalid(`Tools[${i}] must be {Type: "function", Function: {Name, Description, Parameters}}.`);
    if (typeof f.Parameters !== 'string') return invalid(`Tools[${i}].Function.Parameters must be a JSON string.`);
    try {
      JSON.parse(f.Parameters);
    } catch {
      return invalid(`Tools[${i}].Function.Parameters is not valid JSON.`);
    }
  }
  const choice = body.ToolChoice;
  if (choice !== undefined && !['none', 'auto', 'custom'].includes(String(choice)))
    return { code: 'InvalidParameterValue', message: 'ToolChoice must be none, auto or custom.' };
  if (choice === 'custom' && !isObject(body.CustomTool))
    return { code: 'MissingParameter', message: 'CustomTool is required when ToolChoice is custom.' };
  return null;
}

/** Role order: an optional system first, then user and assistant alternating (tool results after a call), ending with user or tool. */
function checkMessages(messages: unknown): TencentRefusal | null {
  if (!Array.isArray(messages) || messages.length === 0)
    return { code: 'MissingParameter', message: 'The request is missing a required parameter `Messages`.' };
  let prev = '';
  let pendingCalls = false;
  for (const [i, m] of messages.entries()) {
    if (!isObject(m)) return invalid(`Messages[${i}] must be an object.`);
    for (const k of Object.keys(m)) if (!MESSAGE_FIELDS.has(k)) return unknown(`Messages[${i}].${k}`);
    const role = m.Role;
    const hasText =
      (typeof m.Content === 'string' && m.Content !== '') || (Array.isArray(m.Contents) && m.Contents.length > 0);
    if (m.Content !== undefined && m.Contents !== undefined)
      return invalid(`Messages[${i}]: Content and Contents cannot both be set.`);
    switch (role) {
      case 'system':
        if (i !== 0) return invalid('Messages: the system message must come first.');
        break;
      case 'user':
        if (!['', 'system', 'assistant'].includes(prev) || pendingCalls)
          return invalid('Messages: user and assistant roles must alternate, starting with user.');
        if (!hasText) return invalid(`Messages[${i}].Content cannot be empty.`);
        break;
      case 'assistant':
        if (prev !== 'user' && prev !== 'tool')
          return invalid('Messages: an assistant message must follow a user or tool message.');
        pendingCalls = Array.isArray(m.ToolCalls) && m.ToolCalls.length > 0;
        if (!pendingCalls && !hasText) return invalid(`Messages[${i}].Content cannot be empty.`);
        break;
      case 'tool':
        if (!(prev === 'assistant' && pendingCalls) && prev !== 'tool')
          return invalid('Messages: a tool message must follow an assistant message with ToolCalls.');
        if (typeof m.ToolCallId !== 'string' || !m.ToolCallId) return invalid(`Messages[${i}].ToolCallId is required.`);
        pendingCalls = false;
        break;
      default:
        return {
          code: 'InvalidParameterValue',
          message: `Messages[${i}].Role must be system, user, assistant or tool.`,
        };
    }
    prev = String(role);
  }
  if (prev !== 'user' && prev !== 'tool')
    return invalid('Messages: the last message must be from the user (or a tool result).');
  return null;
}

export function validateChat(body: Json): TencentRefusal | null {
  for (const k of Object.keys(body)) if (!CHAT_FIELDS.has(k)) return unknown(k);
  if (typeof body.Model !== 'string' || !body.Model)
    return { code: 'MissingParameter', message: 'The request is missing a required parameter `Model`.' };
  if (!/^hunyuan-/.test(body.Model))
    return { code: 'InvalidParameterValue.Model', message: `The model \`${body.Model}\` does not exist.` };
  if (body.Stream !== undefined && typeof body.Stream !== 'boolean') return invalid('Stream must be a boolean.');
  const t = body.Temperature;
  if (t !== undefined && (typeof t !== 'number' || t < 0 || t > 2))
    return { code: 'InvalidParameterValue', message: 'Temperature must be in [0, 2].' };
  const p = body.TopP;
  if (p !== undefined && (typeof p !== 'number' || p < 0 || p > 1))
    return { code: 'InvalidParameterValue', message: 'TopP must be in [0, 1].' };
  return checkMessages(body.Messages) ?? checkTools(body);
}

export function validateEmbedding(body: Json): TencentRefusal | null {
  for (const k of Object.keys(body)) if (k !== 'Input' && k !== 'Inputs') return unknown(k);
  if (typeof body.Input === 'string' && body.Input) return null;
  if (Array.isArray(body.Inputs) && body.Inputs.length > 0 && body.Inputs.every((s) => typeof s === 'string'))
    return null;
  return { code: 'MissingParameter', message: 'The request is missing a required parameter `Input` or `Inputs`.' };
}
