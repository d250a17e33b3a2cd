import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendJson, sleep, startRecordingServer } from '../native-http.ts';
import type { FakeUpstream } from '../server.ts';

/*
 * A strict fake of Coze's v3 chat API (type 49), as Coze documents it. `POST /v3/chat` with the
 * personal access token as bearer; refusals are HTTP 200 `{code, msg, detail:{logid}}`: 4100 for a
 * wrong token, 4000 for a bad parameter (user_id, additional_messages: roles user/assistant, an
 * assistant turn typed `answer`, content_type text or object_string whose JSON lists text/image/file
 * objects), 4200 for an unknown bot. A stream is `event:`/`data:` pairs: conversation.chat.created,
 * five conversation.message.delta answers, conversation.message.completed, conversation.chat.completed
 * with usage, done. Bots: COZE_BOT answers; COZE_UNPUBLISHED_BOT is refused with 4015 (not published
 * as an API); COZE_FAILING_BOT answers two deltas then conversation.chat.failed, COZE_BROKEN_BOT fails
 * before any delta.
 */

export const COZE_BOT = '7432100000000000001';
export const COZE_UNPUBLISHED_BOT = '7432100000000000400';
export const COZE_FAILING_BOT = '7432100000000000500';
export const COZE_BROKEN_BOT = '7432100000000000501';
export const COZE_UNPUBLISHED_MSG = 'The bot has not been published to the Agent As API channel.';
export const COZE_USAGE = { input_count: 17, output_count: 5 };
const PIECES = ['w0 ', 'w1 ', 'w2 ', 'w3 ', 'w4 '];
const BOTS = new Set([COZE_BOT, COZE_UNPUBLISHED_BOT, COZE_FAILING_BOT, COZE_BROKEN_BOT]);

const refuse = (res: ServerResponse, code: number, msg: string) =>
  sendJson(res, 200, { code, msg, detail: { logid: randomUUID().replaceAll('-', '') } });

interface Message {
  role?: unknown;
  type?: unknown;
  content?: unknown;
  content_type?: unknown;
}

/** Why Coze would refuse an object_string content, or undefined. */
function badObjects(content: string): string | undefined {
  let list: unknown;
  try {
    list = JSON.parse(content);
  } catch {
    return 'object_string content is not JSON';
  }
  if (!Array.isArray(list) || list.length === 0) return 'object_string content must be a non-empty list';
  for (const o of list as { type?: unknown; text?: unknown; file_url?: unknown; file_id?: unknown }[]) {
    if (o?.type === 'text' && typeof o.text === 'string') continue;
    if (
      ['image', 'file', 'audio'].includes(String(o?.type)) &&
      (typeof o.file_url === 'string' || typeof o.file_id === 'string')
    )
      continue;
    return 'invalid object in object_string content';
  }
  return undefined;
}

function badMessages(messages: unknown): string | undefined {
  if (messages === undefined) return undefined;
  if (!Array.isArray(messages)) return 'additional_messages must be a list';
  for (const m of messages as Message[]) {
    if (m?.role !== 'user' && m?.role !== 'assistant') return `invalid role: ${String(m?.role)}`;
    if (m.role === 'assistant' && m.type !== 'answer') return 'an assistant message must be of type answer';
    if (typeof m.content !== 'string' || m.content === '') return 'content is required';
    if (m.content_type === 'object_string') {
      const bad = badObjects(m.content);
      if (bad) return bad;
    } else if (m.content_type !== 'text') return `invalid content_type: ${String(m.content_type)}`;
  }
  return undefined;
}

export function startFakeCoze(token: string): Promise<FakeUpstream> {
  return startRecordingServer(async (req, res, body) => {
    if (req.headers.authorization !== `Bearer ${token}`) return refuse(res, 4100, 'authentication is invalid');
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v3/chat')
      return sendJson(res, 404, { code: 404, msg: 'Not Found' });
    if (typeof body.bot_id !== 'string' || body.bot_id === '')
      return refuse(res, 4000, 'invalid param: bot_id is required');
    if (typeof body.user_id !== 'string' || body.user_id === '')
      return refuse(res, 4000, 'invalid param: user_id is required');
    const bad = badMessages(body.additional_messages);
    if (bad) return refuse(res, 4000, `invalid param: ${bad}`);
    if (!BOTS.has(body.bot_id)) return refuse(res, 4200, 'bot not found or access denied');
    if (body.bot_id === COZE_UNPUBLISHED_BOT) return refuse(res, 4015, COZE_UNPUBLISHED_MSG);

    const chat = {
      id: randomUUID(),
      conversation_id: randomUUID(),
      bot_id: body.bot_id,
      created_at: Math.floor(Date.now() / 1000),
      section_id: randomUUID(),
    };
    const zero = { token_count: 0, output_count: 0, input_count: 0 };
    if (body.stream !== true)
      // Not streamed: the chat is an async task (the client polls /v3/chat/retrieve); not served here.
      return sendJson(res, 200, { code: 0, msg: '', data: { ...chat, status: 'in_progress', usage: zero } });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (event: string, data: unknown) => res.write(`event:${event}\ndata:${JSON.stringify(data)}\n\n`);
    const message = (content: string, type = 'answer') => ({
      id: randomUUID(),
      conversation_id: chat.conversation_id,
      bot_id: chat.bot_id,
      chat_id: chat.id,
      role: 'assistant',
      type,
      content,
      content_type: 'text',
      section_id: chat.section_id,
    });
    send('conversation.chat.created', { ...chat, status: 'created', last_error: { code: 0, msg: '' }, usage: zero });
    send('conversation.chat.in_progress', { ...chat, status: 'in_progress', usage: zero });
    for (const [i, piece] of PIECES.entries()) {
      if ((i === 2 && body.bot_id === COZE_FAILING_BOT) || body.bot_id === COZE_BROKEN_BOT) {
        send('conversation.chat.failed', {
          ...chat,
          status: 'failed',
          last_error: { code: 5000, msg: 'The bot broke.' },
        });
        send('done', '[DONE]');
        res.end();
        return;
      }
      send('conversation.message.delta', message(piece));
      await sleep(2);
    }
    send('conversation.message.completed', message(PIECES.join('')));
    send('conversation.message.completed', message('{"msg_type":"generate_answer_finish"}', 'verbose'));
    const usage = { ...COZE_USAGE, token_count: COZE_USAGE.input_count + COZE_USAGE.output_count };
    send('conversation.chat.completed', { ...chat, status: 'completed', completed_at: chat.created_at + 1, usage });
    send('done', '[DONE]');
    res.end();
  });
}
