import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { PIECES, sendJson, sleep, startRecordingServer } from '../native-http.ts';
import type { FakeUpstream } from '../server.ts';

/*
 * A strict fake of Baidu's legacy ERNIE API (wenxinworkshop, channel type 15). The token endpoint
 * (`POST /oauth/2.0/token?grant_type=client_credentials&client_id&client_secret`) checks the test's
 * API Key and Secret Key and issues access tokens; every chat / embeddings call must carry a token
 * it issued and that has not expired (`expireTokens()` ages them: Baidu then answers 111), else 110.
 * Errors come as Baidu sends them: HTTP 200 with `{error_code, error_msg}`. Chat bodies are checked
 * like Baidu does: messages odd in number, user first and alternating, non-empty; temperature in
 * (0, 1]; top_p in [0, 1]; penalty_score in [1, 2]; max_output_tokens >= 2; no unknown fields.
 * An endpoint `<name>+fail-400` answers 336003; `<name>+fail-mid` breaks off its stream with an error.
 */

export const FAKE_BAIDU_API_KEY = 'baidu-fake-api-key';
export const FAKE_BAIDU_SECRET_KEY = 'baidu-fake-secret-key';
export const BAIDU_USAGE = { prompt_tokens: 9, completion_tokens: 5, total_tokens: 14 };
export const BAIDU_FAIL_400 = { error_code: 336003, error_msg: 'Invalid argument: the prompt does not pass review' };

const CHAT = new Set([
  'completions_pro',
  'completions',
  'eb-instant',
  'ernie_speed',
  'ernie-3.5-8k-0205',
  'ernie-3.5-8k-1222',
  'ernie_bot_8k',
  'ernie-3.5-4k-0205',
  'ernie-speed-128k',
  'ernie-lite-8k',
  'ernie-tiny-8k',
  'bloomz_7b1',
]);
const EMBEDDINGS = new Set(['embedding-v1', 'bge_large_zh', 'bge_large_en', 'tao_8k']);
const CHAT_FIELDS = new Set([
  'messages',
  'system',
  'stream',
  'temperature',
  'top_p',
  'penalty_score',
  'max_output_tokens',
  'stop',
  'user_id',
  'disable_search',
  'enable_citation',
]);

const baiduError = (res: ServerResponse, error_code: number, error_msg: string) =>
  sendJson(res, 200, { error_code, error_msg });

/** Baidu's refusal of a chat body, as [code, message]; undefined when it is fine. */
function chatRefusal(body: Record<string, unknown>): [number, string] | undefined {
  for (const k of Object.keys(body)) if (!CHAT_FIELDS.has(k)) return [336002, `Invalid JSON: unknown field ${k}`];
  const messages = body.messages as { role?: unknown; content?: unknown }[] | undefined;
  if (!Array.isArray(messages) || messages.length === 0) return [336003, 'messages is empty'];
  if (messages.length % 2 === 0) return [336006, 'the length of messages must be an odd number'];
  for (const [i, m] of messages.entries()) {
    const want = i % 2 === 0 ? 'user' : 'assistant';
    if (m.role !== want)
      return [
        336006,
        i % 2 === 0
          ? 'the role of message with even index in the messages must be user or function'
          : 'the role of message with odd index in the messages must be assistant',
      ];
    if (typeof m.content !== 'string' || m.content === '') return [336003, 'message content can not be empty'];
  }
  const inRange = (k: string, lo: number, hi: number, loOpen = false) => {
    const v = body[k];
    return v === undefined || (typeof v === 'number' && (loOpen ? v > lo : v >= lo) && v <= hi);
  };
  if (!inRange('temperature', 0, 1, true)) return [336003, 'temperature range is (0, 1.0]'];
  if (!inRange('top_p', 0, 1)) return [336003, 'top_p range is [0, 1.0]'];
  if (!inRange('penalty_score', 1, 2)) return [336003, 'penalty_score range is [1.0, 2.0]'];
  if (!inRange('max_output_tokens', 2, 2048)) return [336003, 'max_output_tokens range is [2, 2048]'];
  if (body.system !== undefined && typeof body.system !== 'string') return [336003, 'system must be a string'];
  return undefined;
}

export type FakeBaidu = FakeUpstream & {
  /** Makes every token issued so far expired (Baidu answers 111 to it). */
  expireTokens(): void;
};

export async function startFakeBaidu(): Promise<FakeBaidu> {
  const tokens = new Map<string, { expired: boolean }>();
  const fake = await startRecordingServer(async (req, res, body) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (req.method !== 'POST') return baiduError(res, 3, 'Unsupported openapi method');
    if (url.pathname === '/oauth/2.0/token') {
      const q = url.searchParams;
      if (q.get('grant_type') !== 'client_credentials')
        return sendJson(res, 400, { error: 'unsupported_grant_type', error_description: 'unsupported grant type' });
      if (q.get('client_id') !== FAKE_BAIDU_API_KEY)
        return sendJson(res, 401, { error: 'invalid_client', error_description: 'unknown client id' });
      if (q.get('client_secret') !== FAKE_BAIDU_SECRET_KEY)
        return sendJson(res, 401, { error: 'invalid_client', error_description: 'Client authentication failed' });
      const token = `24.${randomUUID().replaceAll('-', '')}.2592000.fake`;
      tokens.set(token, { expired: false });
      return sendJson(res, 200, { access_token: token, expires_in: 2592000, scope: 'public', session_key: 'fake' });
    }
    const m = /^\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/(chat|embeddings)\/([^/]+)$/.exec(url.pathname);
    if (!m) return baiduError(res, 3, 'Unsupported openapi method');
    const token = tokens.get(url.searchParams.get('access_token') ?? '');
    if (!token) return baiduError(res, 110, 'Access token invalid or no longer valid');
    if (token.expired) return baiduError(res, 111, 'Access token expired');
    const endpoint = decodeURIComponent(m[2]);
    const [name, behaviour] = endpoint.split('+');
    if (m[1] === 'embeddings') {
      if (!EMBEDDINGS.has(name)) return baiduError(res, 336005, 'API name not exist');
      const input = body.input;
      if (!Array.isArray(input) || input.length === 0 || !input.every((s) => typeof s === 'string' && s))
        return baiduError(res, 336003, 'input can not be empty');
      return sendJson(res, 200, {
        id: `as-${randomUUID()}`,
        object: 'embedding_list',
        created: Math.floor(Date.now() / 1000),
        data: input.map((_, index) => ({ object: 'embedding', embedding: [index, 0.5, -0.5], index })),
        usage: { prompt_tokens: 3 * input.length, total_tokens: 3 * input.length },
      });
    }
    if (!CHAT.has(name)) return baiduError(res, 336005, 'API name not exist');
    const refused = chatRefusal(body);
    if (refused) return baiduError(res, ...refused);
    if (behaviour === 'fail-400') return baiduError(res, BAIDU_FAIL_400.error_code, BAIDU_FAIL_400.error_msg);
    const id = `as-${randomUUID()}`;
    const created = Math.floor(Date.now() / 1000);
    if (body.stream !== true)
      return sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        result: PIECES.join(''),
        is_truncated: false,
        need_clear_history: false,
        usage: BAIDU_USAGE,
      });
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const [i, piece] of PIECES.entries()) {
      if (behaviour === 'fail-mid' && i === 2) {
        res.end(`data: ${JSON.stringify({ error_code: 336100, error_msg: 'try again later' })}\n\n`);
        return;
      }
      const last = i === PIECES.length - 1;
      const event = {
        id,
        object: 'chat.completion',
        created,
        sentence_id: i,
        is_end: last,
        is_truncated: false,
        result: piece,
        need_clear_history: false,
        usage: last ? BAIDU_USAGE : { prompt_tokens: BAIDU_USAGE.prompt_tokens, completion_tokens: 0, total_tokens: 0 },
      };
      res.write(`data: ${JSON.stringify(event)}\n\n`);
      await sleep(1);
    }
    res.end();
  });
  return {
    ...fake,
    expireTokens: () => {
      for (const t of tokens.values()) t.expired = true;
    },
  };
}
