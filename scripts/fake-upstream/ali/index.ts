import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson, startRecordingServer } from '../native-http.ts';
import type { FakeUpstream } from '../server.ts';
import { compatibleChat, compatibleEmbeddings, compatibleModels, openAIError } from './compatible.ts';
import { createImageTasks, nativeError, rerank } from './native.ts';

export { ALI_FAIL_400, ALI_MODELS, ALI_REASONING, ALI_USAGE } from './compatible.ts';
export { ALI_RERANK_TOKENS_PER_DOC, ALI_TASK_FAILURE } from './native.ts';

/*
 * A strict fake of Alibaba Cloud DashScope (channel type 17): compatible mode (compatible.ts) and
 * the native image task and rerank APIs (native.ts). Every call needs `Authorization: Bearer <key>`
 * with the test's key; another key is refused as DashScope refuses it, 401 with `invalid_api_key`
 * (compatible mode) or `InvalidApiKey` (native). `ARREARS_KEY` answers `Arrearage` (account overdue).
 */

export const FAKE_ALI_KEY = 'sk-ali-fake-key';
export const ARREARS_ALI_KEY = 'sk-ali-in-arrears';
/** A tiny PNG (1x1) served for every generated image URL. */
export const FAKE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

function keyRefusal(req: IncomingMessage, res: ServerResponse, compatible: boolean): boolean {
  const auth = String(req.headers.authorization ?? '');
  const key = auth.startsWith('Bearer ') ? auth.slice(7) : '';
  if (key === FAKE_ALI_KEY) return false;
  if (key === ARREARS_ALI_KEY) {
    const message = 'Access denied, please make sure your account is in good standing.';
    if (compatible) openAIError(res, 400, 'Arrearage', message, 'Arrearage');
    else nativeError(res, 400, 'Arrearage', message);
    return true;
  }
  if (compatible) openAIError(res, 401, 'invalid_api_key', 'Incorrect API key provided. ', 'invalid_request_error');
  else nativeError(res, 401, 'InvalidApiKey', 'Invalid API-key provided.');
  return true;
}

export async function startFakeAli(): Promise<FakeUpstream> {
  let url = '';
  const tasks = createImageTasks(() => url);
  const fake = await startRecordingServer(async (req, res, body) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    if (req.method === 'GET' && path.startsWith('/images/')) {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': FAKE_PNG.length });
      return void res.end(FAKE_PNG);
    }
    const compatible = path.startsWith('/compatible-mode/v1/');
    if (keyRefusal(req, res, compatible)) return;
    if (req.method === 'GET' && path === '/compatible-mode/v1/models') return compatibleModels(res);
    const task = /^\/api\/v1\/tasks\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && task) return tasks.poll(res, decodeURIComponent(task[1]));
    if (req.method !== 'POST') return sendJson(res, 405, { code: 'MethodNotAllowed', message: 'Method not allowed' });
    if (path === '/compatible-mode/v1/chat/completions') return compatibleChat(res, body);
    if (path === '/compatible-mode/v1/embeddings') return compatibleEmbeddings(res, body);
    if (path === '/api/v1/services/aigc/text2image/image-synthesis')
      return tasks.submit(res, body, req.headers['x-dashscope-async'] as string | undefined);
    if (path === '/api/v1/services/rerank/text-rerank/text-rerank') return rerank(res, body);
    return nativeError(res, 404, 'NotFound', `Path ${path} not found`);
  });
  url = fake.url;
  return fake;
}
