import { sendJson, startRecordingServer } from '../native-http.ts';
import type { FakeUpstream } from '../server.ts';

/*
 * A strict fake of Google's PaLM v1beta2 `generateMessage` (type 11). It refuses what Google refused:
 * a wrong API key (400 API_KEY_INVALID), unknown fields, a prompt without messages or with an empty
 * one, temperature outside 0..1, candidateCount outside 1..8, and streaming paths (there were none).
 * `<model>` answers the five words; `<model>+fail-400` answers Google's invalid-argument error.
 */

export const PALM_ANSWER = 'w0 w1 w2 w3 w4 ';
export const PALM_ERROR = 'Request contains an invalid argument.';

const googleError = (code: number, status: string, message: string, reason?: string) => ({
  error: {
    code,
    message,
    status,
    ...(reason
      ? { details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com' }] }
      : {}),
  },
});

const TOP_LEVEL = new Set(['prompt', 'temperature', 'candidateCount', 'topP', 'topK']);
const PROMPT = new Set(['context', 'examples', 'messages']);

function refusal(body: Record<string, unknown>): string | undefined {
  for (const k of Object.keys(body))
    if (!TOP_LEVEL.has(k)) return `Invalid JSON payload received. Unknown name "${k}": Cannot find field.`;
  const prompt = body.prompt as Record<string, unknown> | undefined;
  if (!prompt || typeof prompt !== 'object') return 'prompt is required.';
  for (const k of Object.keys(prompt))
    if (!PROMPT.has(k)) return `Invalid JSON payload received. Unknown name "${k}" at 'prompt': Cannot find field.`;
  const messages = prompt.messages as { author?: unknown; content?: unknown }[] | undefined;
  if (!Array.isArray(messages) || messages.length === 0) return 'prompt.messages must not be empty.';
  if (messages.some((m) => typeof m.content !== 'string' || m.content === ''))
    return 'message content must not be empty.';
  const t = body.temperature;
  if (t !== undefined && (typeof t !== 'number' || t < 0 || t > 1)) return 'temperature must be in [0.0, 1.0].';
  const n = body.candidateCount;
  if (n !== undefined && (typeof n !== 'number' || n < 1 || n > 8)) return 'candidateCount must be in [1, 8].';
  return undefined;
}

export function startFakePalm(apiKey: string): Promise<FakeUpstream> {
  return startRecordingServer(async (req, res, body) => {
    const m = /^\/v1beta2\/models\/([^/:]+):generateMessage$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !m) return sendJson(res, 404, googleError(404, 'NOT_FOUND', 'Method not found.'));
    if (req.headers['x-goog-api-key'] !== apiKey)
      return sendJson(
        res,
        400,
        googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', 'API_KEY_INVALID'),
      );
    const model = decodeURIComponent(m[1]);
    const refused = refusal(body);
    if (refused) return sendJson(res, 400, googleError(400, 'INVALID_ARGUMENT', refused));
    if (model.endsWith('+fail-400')) return sendJson(res, 400, googleError(400, 'INVALID_ARGUMENT', PALM_ERROR));
    const messages = (body.prompt as { messages: { author?: string; content: string }[] }).messages;
    sendJson(res, 200, {
      candidates: [{ author: '1', content: PALM_ANSWER }],
      messages,
      filters: [],
    });
  });
}
