import type { CanonicalMessage, CanonicalTool } from '../../canonical/types.ts';
import { refusal } from '../../errors.ts';
import { textMessages, type TextMessage } from '../shared/text-answer.ts';
import type { AttemptContext } from '../types.ts';
import type { SparkVersion } from './versions.ts';

/*
 * The internal (OpenAI chat) body as Spark's WebSocket request frame:
 * `{header: {app_id, uid}, parameter: {chat: {domain, temperature, max_tokens, top_k}},
 *   payload: {message: {text: [{role, content}]}}}`. Spark takes text turns only (system, user,
 * assistant); a tool result becomes a user turn quoting it. Its WebSocket API calls no functions
 * (Spark sends function calling to its HTTP API), so declared tools are left out and reported
 * (AttemptContext.droppedTools); a request that requires a call is refused. Pictures go to
 * another Spark API (image understanding) and are refused here rather than silently dropped.
 */

type Json = Record<string, unknown>;

const refuse = (message: string, zh: string) => refusal(400, message, zh, 'unsupported_content');

/** Refuses parts Spark's chat cannot read: it would answer as if the picture or file was not there. */
function checkTextOnly(messages: CanonicalMessage[]) {
  for (const m of messages) {
    if (!Array.isArray(m.content)) continue;
    const other = m.content.find((p) => p?.type !== 'text');
    if (other)
      throw refuse(
        `Xunfei Spark's chat API takes text only, not '${other.type}' content`,
        `讯飞星火对话接口只接受文本，不支持 '${other.type}' 类型的内容`,
      );
  }
}

/** Declared functions are not sent; a tool_choice that requires one cannot be honoured. */
function dropTools(ctx: AttemptContext, body: Json) {
  const tools = (Array.isArray(body.tools) ? body.tools : []) as CanonicalTool[];
  const choice = body.tool_choice;
  if (tools.length === 0 || choice === 'none') return;
  if (choice === 'required' || (typeof choice === 'object' && choice !== null))
    throw refuse(
      "Xunfei Spark's WebSocket chat API cannot call tools, and this request requires a tool call",
      '讯飞星火 WebSocket 对话接口不支持工具调用，而本请求要求调用工具',
    );
  const names = tools.map((t) => (t.type === 'function' ? t.function?.name : undefined) ?? String(t.type));
  (ctx.droppedTools ??= []).push(...names);
}

/**
 * Spark's turns: one system message first (joined), empty turns left out (Spark refuses them). A
 * version without a system role gets it as a user turn the assistant acknowledges, as new-api sends it.
 */
function sparkTurns(messages: TextMessage[], version: SparkVersion): TextMessage[] {
  const system = messages
    .filter((m) => m.role === 'system' && m.content)
    .map((m) => m.content)
    .join('\n\n');
  const turns = messages.filter((m) => m.role !== 'system' && m.content !== '');
  if (!system) return turns;
  if (version.system) return [{ role: 'system', content: system }, ...turns];
  return [{ role: 'user', content: system }, { role: 'assistant', content: 'Okay' }, ...turns];
}

/** The request frame for an internal chat body on `version`, as app `appId`. */
export function toSparkFrame(ctx: AttemptContext, body: Json, version: SparkVersion, appId: string): Json {
  const messages = (Array.isArray(body.messages) ? body.messages : []) as CanonicalMessage[];
  checkTextOnly(messages);
  dropTools(ctx, body);
  const chat: Json = { domain: version.domain };
  if (typeof body.temperature === 'number') chat.temperature = body.temperature;
  const max = body.max_tokens ?? body.max_completion_tokens;
  // Spark refuses more than its version can write; fewer is all the client can get anyway.
  if (typeof max === 'number') chat.max_tokens = Math.max(1, Math.min(Math.floor(max), version.maxTokens));
  // Spark samples from the 1 to 6 best tokens; Anthropic and Gemini clients send larger top_k.
  if (typeof body.top_k === 'number') chat.top_k = Math.max(1, Math.min(Math.round(body.top_k), 6));
  const header: Json = { app_id: appId };
  // Spark's uid (the end user, for its own abuse control) takes 32 characters at most.
  if (typeof body.user === 'string' && body.user) header.uid = body.user.slice(0, 32);
  return {
    header,
    parameter: { chat },
    payload: { message: { text: sparkTurns(textMessages(messages), version) } },
  };
}
