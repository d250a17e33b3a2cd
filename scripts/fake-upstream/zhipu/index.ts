import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { PIECES, sendJson, sleep, startRecordingServer } from '../native-http.ts';
import type { FakeUpstream } from '../server.ts';

/*
 * A strict fake of Zhipu's legacy v3 model API (channel type 16): `POST
 * /api/paas/v3/model-api/{model}/invoke` (JSON) and `/sse-invoke` (SSE: `add` events of raw text,
 * `finish` with its usage on a `meta:` line). The Authorization header must be a JWT (HS256, header
 * `sign_type: SIGN`) verified with the test's secret, its `api_key` the test's id and its `exp`
 * (milliseconds) in the future; else Zhipu's 1001-1004. Errors come as Zhipu sent them: HTTP 200,
 * `{code, msg, success: false}`. The prompt must hold user / assistant turns only, alternating,
 * non-empty, ending with the user's; temperature in (0, 1], top_p in (0, 1); no unknown fields.
 * `<model>+fail-400` answers 1214; `+arrears` 1113; `+fail-mid` breaks its stream with an error
 * event; `+multiline` answers two lines (two `data:` lines in one event).
 */

export const FAKE_ZHIPU_ID = 'zhipu-fake-id';
export const FAKE_ZHIPU_SECRET = 'zhipu-fake-secret';
export const ZHIPU_USAGE = { prompt_tokens: 8, completion_tokens: 5, total_tokens: 13 };
export const ZHIPU_FAIL_400 = { code: 1214, msg: 'prompt参数非法。请检查文档。' };

const MODELS = new Set(['chatglm_turbo', 'chatglm_pro', 'chatglm_std', 'chatglm_lite', 'characterglm']);
const FIELDS = new Set(['prompt', 'temperature', 'top_p', 'request_id', 'incremental', 'return_type', 'ref', 'meta']);

const zhipuError = (res: ServerResponse, code: number, msg: string) =>
  sendJson(res, 200, { code, msg, success: false });

/** Zhipu's refusal of the token, as [code, message]; undefined when it is valid. */
async function tokenRefusal(auth: string | undefined): Promise<[number, string] | undefined> {
  if (!auth) return [1001, 'Header中未收到Authorization参数，无法进行身份验证。'];
  try {
    if (decodeProtectedHeader(auth).sign_type !== 'SIGN')
      return [1002, 'Authorization Token非法，请确认Authorization Token正确传递。'];
  } catch {
    return [1002, 'Authorization Token非法，请确认Authorization Token正确传递。'];
  }
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(auth, new TextEncoder().encode(FAKE_ZHIPU_SECRET), { algorithms: ['HS256'] }));
  } catch {
    return [1004, '提供的Authorization Token验证失败。'];
  }
  if (payload.api_key !== FAKE_ZHIPU_ID) return [1000, '身份验证失败。'];
  if (typeof payload.exp !== 'number' || payload.exp <= Date.now() || typeof payload.timestamp !== 'number')
    return [1003, 'Authorization Token已过期，请重新生成/获取。'];
  return undefined;
}

function bodyRefusal(body: Record<string, unknown>, stream: boolean): string | undefined {
  for (const k of Object.keys(body)) if (!FIELDS.has(k)) return `${k}参数非法。请检查文档。`;
  const prompt = body.prompt as { role?: unknown; content?: unknown }[] | undefined;
  if (!Array.isArray(prompt) || prompt.length === 0) return 'prompt参数非法。请检查文档。';
  for (const [i, m] of prompt.entries()) {
    if (m.role !== 'user' && m.role !== 'assistant') return 'prompt.role参数非法。请检查文档。';
    if (i > 0 && prompt[i - 1].role === m.role) return 'prompt中user与assistant须交替出现。';
    if (typeof m.content !== 'string' || !m.content) return 'prompt.content参数非法。请检查文档。';
  }
  if (prompt.at(-1)?.role !== 'user') return 'prompt最后一条须为user。';
  const t = body.temperature;
  if (t !== undefined && (typeof t !== 'number' || t <= 0 || t > 1)) return 'temperature参数非法。请检查文档。';
  const p = body.top_p;
  if (p !== undefined && (typeof p !== 'number' || p <= 0 || p >= 1)) return 'top_p参数非法。请检查文档。';
  if (stream && body.incremental !== true) return 'incremental参数非法：本服务只支持增量返回。';
  return undefined;
}

export function startFakeZhipu(): Promise<FakeUpstream> {
  return startRecordingServer(async (req, res, body) => {
    const m = /^\/api\/paas\/v3\/model-api\/([^/]+)\/(invoke|sse-invoke)$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !m) return sendJson(res, 404, { code: 404, msg: 'Not Found', success: false });
    const denied = await tokenRefusal(req.headers.authorization);
    if (denied) return zhipuError(res, ...denied);
    const [model, behaviour] = decodeURIComponent(m[1]).split('+');
    if (!MODELS.has(model)) return zhipuError(res, 1211, '模型不存在，请检查模型代码。');
    const stream = m[2] === 'sse-invoke';
    const refused = bodyRefusal(body, stream);
    if (refused) return zhipuError(res, 1214, refused);
    if (behaviour === 'fail-400') return zhipuError(res, ZHIPU_FAIL_400.code, ZHIPU_FAIL_400.msg);
    if (behaviour === 'arrears') return zhipuError(res, 1113, '您的账户已欠费，请充值后重试。');
    const taskId = String(Date.now()) + randomUUID().slice(0, 8);
    const pieces = behaviour === 'multiline' ? ['line one\nline two'] : PIECES;
    if (!stream)
      return sendJson(res, 200, {
        code: 200,
        msg: '操作成功',
        success: true,
        data: {
          request_id: taskId,
          task_id: taskId,
          task_status: 'SUCCESS',
          // v3 quotes the content as a JSON string.
          choices: [{ role: 'assistant', content: JSON.stringify(pieces.join('')) }],
          usage: ZHIPU_USAGE,
        },
      });
    res.writeHead(200, { 'content-type': 'text/event-stream;charset=UTF-8' });
    for (const [i, piece] of pieces.entries()) {
      if (behaviour === 'fail-mid' && i === 2) {
        res.end(`event: error\nid: ${taskId}\ndata: 系统繁忙，请稍后再试\n\n`);
        return;
      }
      const data = piece
        .split('\n')
        .map((l) => `data: ${l}`)
        .join('\n');
      res.write(`event: add\nid: ${taskId}\n${data}\n\n`);
      await sleep(1);
    }
    const meta = { task_status: 'SUCCESS', usage: ZHIPU_USAGE, task_id: taskId, request_id: taskId };
    res.end(`event: finish\nid: ${taskId}\ndata: \nmeta: ${JSON.stringify(meta)}\n\n`);
  });
}
