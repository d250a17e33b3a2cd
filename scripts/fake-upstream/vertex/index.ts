import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { startFakeAnthropic } from '../anthropic.ts';
import { startFakeGemini } from '../gemini.ts';
import { sendJson, startRecordingServer } from '../native-http.ts';
import type { FakeUpstream } from '../server.ts';
import { validateAnthropic, validateGemini } from '../strict/index.ts';
import { createTokenIssuer, FAKE_VERTEX_API_KEY, FAKE_VERTEX_PROJECT } from './token.ts';

export { FAKE_VERTEX_API_KEY, FAKE_VERTEX_EMAIL, FAKE_VERTEX_PROJECT, fakeServiceAccount } from './token.ts';

/** Regions the fake serves (Vertex has more; an unknown one is refused as Vertex refuses it). */
const REGIONS = new Set([
  'global',
  'us-central1',
  'us-east1',
  'us-east5',
  'europe-west1',
  'europe-west4',
  'asia-northeast1',
]);

const ROUTE =
  /^\/v1\/(?:projects\/([^/]+)\/locations\/([^/]+)\/)?publishers\/(google|anthropic)\/models\/([^/:]+):([A-Za-z]+)$/;

export const googleError = (code: number, status: string, message: string, details?: object[]) => ({
  error: { code, message, status, ...(details ? { details } : {}) },
});
const anthropicError = (message: string) => ({ type: 'error', error: { type: 'invalid_request_error', message } });

/** The message Vertex answers a missing or foreign bearer token with. */
export const VERTEX_UNAUTHENTICATED =
  'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.';

type Json = Record<string, unknown>;

/** Relays to one of the inner fakes and streams its answer back as it comes. */
async function relay(res: ServerResponse, url: string, headers: Record<string, string>, body: Json) {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
  if (r.body) for await (const chunk of r.body) res.write(chunk);
  res.end();
}

/** Vertex's countTokens body (contents, systemInstruction, tools, generationConfig) in AI Studio's form. */
function aiStudioCount(model: string, body: Json): Json {
  const { model: _m, ...rest } = body;
  return Object.keys(rest).every((k) => k === 'contents')
    ? rest
    : { generateContentRequest: { model: `models/${model}`, ...rest } };
}

/** Vertex's credential checks: express mode's API key, else the bearer token, then the project. */
export function checkAuth(
  h: IncomingHttpHeaders,
  url: URL,
  project: string | undefined,
  valid: (a?: string) => boolean,
) {
  if (project === undefined) {
    // Express mode: an API key, in the header or the query.
    const key = String(h['x-goog-api-key'] ?? url.searchParams.get('key') ?? '');
    if (key === FAKE_VERTEX_API_KEY) return null;
    return {
      status: 400,
      body: googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
      ]),
    };
  }
  if (!valid(h.authorization))
    return { status: 401, body: googleError(401, 'UNAUTHENTICATED', VERTEX_UNAUTHENTICATED) };
  if (decodeURIComponent(project) !== FAKE_VERTEX_PROJECT)
    return {
      status: 403,
      body: googleError(
        403,
        'PERMISSION_DENIED',
        `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/projects/${project}' (or it may not exist).`,
      ),
    };
  return null;
}

/**
 * A fake Vertex AI: the OAuth token endpoint (`POST /token`, JWT assertions verified with the
 * service account's public key) and the publisher routes, regional
 * `/v1/projects/{p}/locations/{r}/publishers/{google|anthropic}/models/{m}:{action}` with the bearer
 * token it issued, and express mode's `/v1/publishers/google/models/{m}:{action}` with its API key.
 * Google's generateContent / streamGenerateContent / countTokens answer as the strict Gemini fake;
 * Anthropic's rawPredict / streamRawPredict (no `model` in the body, `anthropic_version:
 * vertex-2023-10-16`) and `count-tokens:rawPredict` as the strict Anthropic fake, both inner fakes
 * running behind this one. Model-name tokens (`+fail-400`...) work as there.
 */
export async function startFakeVertex(port = 0): Promise<FakeUpstream> {
  const gemini = await startFakeGemini(0, { validate: validateGemini });
  const anthropic = await startFakeAnthropic(0, { validate: validateAnthropic });
  const tokens = createTokenIssuer();
  const fake = await startRecordingServer(async (req, res, body, raw) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'POST' && url.pathname === '/token') {
      const t = tokens.exchange(raw);
      return sendJson(res, t.status, t.body);
    }
    const m = ROUTE.exec(url.pathname);
    if (req.method !== 'POST' || !m)
      return sendJson(
        res,
        404,
        googleError(404, 'NOT_FOUND', `The requested URL ${url.pathname} was not found on this server.`),
      );
    const [, project, location, publisher, modelPart, action] = m;
    const model = decodeURIComponent(modelPart);
    const refused = checkAuth(req.headers, url, project, tokens.valid);
    if (refused) return sendJson(res, refused.status, refused.body);
    if (location !== undefined && !REGIONS.has(location))
      return sendJson(res, 400, googleError(400, 'INVALID_ARGUMENT', `Location ${location} is not supported.`));
    if (publisher === 'google') {
      if (!/^gemini-/.test(model) || !['generateContent', 'streamGenerateContent', 'countTokens'].includes(action))
        return sendJson(
          res,
          404,
          googleError(
            404,
            'NOT_FOUND',
            `Publisher Model \`projects/${project}/locations/${location}/publishers/google/models/${model}\` was not found or your project does not have access to it.`,
          ),
        );
      const inner = action === 'countTokens' ? aiStudioCount(model, body) : body;
      return relay(
        res,
        `${gemini.url}/v1/models/${encodeURIComponent(model)}:${action}${url.search.replace(/[?&]key=[^&]*/, '')}`,
        { 'x-goog-api-key': 'vertex-inner' },
        inner,
      );
    }
    if (project === undefined)
      return sendJson(res, 404, googleError(404, 'NOT_FOUND', 'Anthropic models are not served in express mode.'));
    const headers: Record<string, string> = { 'x-api-key': 'vertex-inner', 'anthropic-version': '2023-06-01' };
    if (req.headers['anthropic-beta']) headers['anthropic-beta'] = String(req.headers['anthropic-beta']);
    const { anthropic_version: version, ...rest } = body;
    if (model === 'count-tokens' && action === 'rawPredict') {
      if (typeof rest.model !== 'string') return sendJson(res, 400, anthropicError('model: Field required'));
      return relay(res, `${anthropic.url}/v1/messages/count_tokens`, headers, rest);
    }
    if (!/^claude-/.test(model) || (action !== 'rawPredict' && action !== 'streamRawPredict'))
      return sendJson(
        res,
        404,
        googleError(
          404,
          'NOT_FOUND',
          `Publisher Model \`projects/${project}/locations/${location}/publishers/anthropic/models/${model}\` not found.`,
        ),
      );
    if ('model' in body) return sendJson(res, 400, anthropicError('model: Extra inputs are not permitted'));
    if (version === undefined) return sendJson(res, 400, anthropicError('anthropic_version: Field required'));
    if (version !== 'vertex-2023-10-16')
      return sendJson(res, 400, anthropicError("anthropic_version: Input should be 'vertex-2023-10-16'"));
    const out = { ...rest, model, ...(action === 'streamRawPredict' ? { stream: true } : {}) };
    return relay(res, `${anthropic.url}/v1/messages`, headers, out);
  }, port);
  return {
    ...fake,
    close: async () => {
      await Promise.all([fake.close(), gemini.close(), anthropic.close()]);
    },
  };
}
