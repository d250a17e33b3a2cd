import { sendJson, sleep, startRecordingServer } from '../native-http.ts';
import type { FakeUpstream } from '../server.ts';

/*
 * A strict fake of AI Proxy's knowledge-base API (`POST /api/library/ask`, type 21). Like the real one
 * it answers failures with HTTP 200, `success: false`, `errCode` and `errMsg`: a wrong bearer key
 * (errCode 401), a missing or unknown libraryId, an empty query, unknown fields. `<model>` answers the five
 * words (five SSE events when streamed, `finish: true` on the last); `<model>+fail-400` a refusal.
 */

export const LIBRARY_ERROR = 'The question was refused by the knowledge base.';
const PIECES = ['w0 ', 'w1 ', 'w2 ', 'w3 ', 'w4 '];
const FIELDS = new Set(['model', 'query', 'libraryId', 'stream']);

const failure = (errCode: number, errMsg: string) => ({ success: false, errCode, errMsg });

export function startFakeAiProxyLibrary(apiKey: string, libraryId: string): Promise<FakeUpstream> {
  return startRecordingServer(async (req, res, body) => {
    if (req.method !== 'POST' || req.url !== '/api/library/ask') return sendJson(res, 404, failure(404, 'Not Found'));
    if (req.headers.authorization !== `Bearer ${apiKey}`) return sendJson(res, 200, failure(401, 'invalid api key'));
    const unknown = Object.keys(body).find((k) => !FIELDS.has(k));
    if (unknown) return sendJson(res, 200, failure(400, `unknown field: ${unknown}`));
    if (body.libraryId !== libraryId) return sendJson(res, 200, failure(404, 'library not found'));
    if (typeof body.query !== 'string' || body.query === '')
      return sendJson(res, 200, failure(400, 'query is required'));
    if (typeof body.model !== 'string' || body.model === '')
      return sendJson(res, 200, failure(400, 'model is required'));
    if (body.model.endsWith('+fail-400')) return sendJson(res, 200, failure(400, LIBRARY_ERROR));
    if (body.stream !== true) return sendJson(res, 200, { success: true, answer: PIECES.join(''), documents: [] });
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const [i, content] of PIECES.entries()) {
      const last = i === PIECES.length - 1;
      res.write(`data: ${JSON.stringify({ content, finish: last, model: body.model, documents: [] })}\n\n`);
      await sleep(2);
    }
    res.end();
  });
}
