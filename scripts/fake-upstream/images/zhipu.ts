import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { jwtVerify } from 'jose';
import type { RecordedRequest } from '../server.ts';
import { fakePng, jsonObjectOf, listenBuffered, pictureHost } from './shared.ts';

/*
 * A strict fake of Zhipu v4's CogView API (channel type 26), as open.bigmodel.cn documents it:
 * `POST /api/paas/v4/images/generations` `{model, prompt, size?, quality?, user_id?, request_id?,
 * watermark_enabled?}` answers one picture `{created, data: [{url}], content_filter: [{role, level}]}`.
 * Auth: `Authorization: Bearer <API key>` (`id.secret`) or a JWT signed with the secret (HS256,
 * `{api_key, exp, timestamp}` in ms), as Zhipu takes both. Refusals are OpenAI's shape with Zhipu's
 * codes, `{error: {code, message}}`: 1001/1000 (401) for a missing or wrong key, 1211 an unknown model,
 * 1214 a bad or unknown parameter (CogView has no `n`), 1301 unsafe content, 1302 too many requests.
 * `size` must be one of CogView's, or on cogview-4 any 512..2048 multiple of 16 up to 2^21 pixels;
 * `quality` (hd | standard) is cogview-4's only. The picture is a PNG of that size labelled
 * `cogview-<n>` (served publicly, as Zhipu's CDN links are). `[unsafe]` and `[busy]` in the prompt
 * answer 1301 and 1302.
 */

export const FAKE_ZHIPU_V4_KEY = 'zhipufakeid.zhipufakesecret';
export const ZHIPU_UNSAFE = {
  code: '1301',
  message: '系统检测到输入或生成内容可能包含不安全或敏感内容，请您避免输入易产生敏感内容的提示语，感谢您的配合。',
};

const MODELS = new Set(['cogview-4-250304', 'cogview-4', 'cogview-3-flash', 'cogview-3-plus']);
const SIZES = ['1024x1024', '768x1344', '864x1152', '1344x768', '1152x864', '1440x720', '720x1440'];
const FIELDS = new Set(['model', 'prompt', 'size', 'quality', 'user_id', 'request_id', 'watermark_enabled']);

const zhipuError = (res: ServerResponse, status: number, code: string, message: string) => {
  const text = JSON.stringify({ error: { code, message } });
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(text);
};

async function keyAccepted(auth: string | undefined): Promise<boolean> {
  const token = /^Bearer (.+)$/.exec(auth ?? '')?.[1];
  if (!token) return false;
  if (token === FAKE_ZHIPU_V4_KEY) return true;
  const [id, secret] = FAKE_ZHIPU_V4_KEY.split('.');
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'] });
    return payload.api_key === id && typeof payload.exp === 'number' && payload.exp > Date.now();
  } catch {
    return false;
  }
}

function sizeOk(model: string, size: string): boolean {
  if (SIZES.includes(size)) return true;
  const m = /^(\d+)x(\d+)$/.exec(size);
  if (!m || !model.startsWith('cogview-4')) return false;
  const [w, h] = [Number(m[1]), Number(m[2])];
  return w >= 512 && w <= 2048 && h >= 512 && h <= 2048 && w % 16 === 0 && h % 16 === 0 && w * h <= 2 ** 21;
}

export interface FakeZhipuImages {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFakeZhipuImages(): Promise<FakeZhipuImages> {
  const requests: RecordedRequest[] = [];
  const host = pictureHost('aigc-files');
  let made = 0;
  const server = await listenBuffered({}, async (req, res, raw) => {
    const path = (req.url ?? '').split('?')[0];
    const { body, parsed } = jsonObjectOf(raw);
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, aborted: false });
    if (host.serve(req.method, path, res)) return;
    if (path !== '/api/paas/v4/images/generations' || req.method !== 'POST')
      return zhipuError(res, 404, '404', 'Not Found');
    if (!req.headers.authorization)
      return zhipuError(res, 401, '1001', 'Header中未收到Authorization参数，无法进行身份验证。');
    if (!(await keyAccepted(req.headers.authorization))) return zhipuError(res, 401, '1000', '身份验证失败。');
    if (!parsed) return zhipuError(res, 400, '1214', '请求体不是合法的JSON。');
    for (const k of Object.keys(body))
      if (!FIELDS.has(k)) return zhipuError(res, 400, '1214', `${k}参数非法。请检查文档。`);
    const model = body.model;
    if (typeof model !== 'string' || !model) return zhipuError(res, 400, '1214', 'model不能为空');
    if (!MODELS.has(model)) return zhipuError(res, 400, '1211', '模型不存在，请检查模型代码。');
    if (typeof body.prompt !== 'string' || !body.prompt.trim()) return zhipuError(res, 400, '1214', 'prompt不能为空');
    const size = body.size ?? '1024x1024';
    if (typeof size !== 'string' || !sizeOk(model, size))
      return zhipuError(res, 400, '1214', 'size参数非法。请检查文档。');
    if (
      body.quality !== undefined &&
      (!model.startsWith('cogview-4') || !['hd', 'standard'].includes(String(body.quality)))
    )
      return zhipuError(res, 400, '1214', 'quality参数非法。请检查文档。');
    const user = body.user_id;
    if (user !== undefined && (typeof user !== 'string' || user.length < 6 || user.length > 128))
      return zhipuError(res, 400, '1214', 'user_id参数非法。请检查文档。');
    if (body.prompt.includes('[unsafe]')) return zhipuError(res, 400, ZHIPU_UNSAFE.code, ZHIPU_UNSAFE.message);
    if (body.prompt.includes('[busy]'))
      return zhipuError(res, 429, '1302', '您当前使用该API的并发数过高，请降低并发，或联系客服增加限额。');
    const [w, h] = size.split('x').map(Number);
    const id = `${Date.now()}${randomBytes(4).toString('hex')}`;
    const url = host.keep(id, fakePng(w, h, `cogview-${++made}`));
    const text = JSON.stringify({
      created: Math.floor(Date.now() / 1000),
      data: [{ url }],
      content_filter: [{ role: 'assistant', level: 3 }],
    });
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
    res.end(text);
  });
  host.listening(server.url);
  return { url: server.url, requests, close: server.close };
}
