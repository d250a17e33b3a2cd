import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { sendJson, startRecordingServer } from '../native-http.ts';
import type { RecordedRequest } from '../server.ts';
import { createClock } from '../task-clock.ts';
import { createTokenIssuer, FAKE_VERTEX_API_KEY, FAKE_VERTEX_PROJECT } from '../vertex/token.ts';
import { fakeMp4 } from './veo-file.ts';
import { sendRanged } from './shared.ts';

export { FAKE_VERTEX_API_KEY, FAKE_VERTEX_PROJECT, fakeServiceAccount } from '../vertex/token.ts';

/*
 * A fake Veo, both of Google's surfaces on one server (wire facts from @google/genai's
 * generateVideos / getVideosOperation / files.download and Google's Veo pages):
 * - Gemini API: `POST /v1beta/models/{m}:predictLongRunning` with `x-goog-api-key` or `?key=`
 *   answers `{name: "models/{m}/operations/{id}"}`; `GET /v1beta/models/{m}/operations/{id}` answers
 *   `{name}` while running, then `{name, done, response:{generateVideoResponse:{generatedSamples:
 *   [{video:{uri}}]}}}` or `{name, done, error:{code, message}}`; the uri
 *   `/v1beta/files/{f}:download?alt=media` needs the same key and honours Range.
 * - Vertex AI: `POST /v1/projects/{p}/locations/{l}/publishers/google/models/{m}:predictLongRunning`
 *   and `:fetchPredictOperation {operationName}` with a bearer token from the fake's `/token`
 *   (a JWT signed by the fake service account), or express mode's `/v1/publishers/google/...` with
 *   its API key; done answers `response.videos[{bytesBase64Encoded|gcsUri, mimeType}]` (gcsUri when
 *   `parameters.storageUri` was given, then `GET /storage/v1/b/{bucket}/o/{object}?alt=media`).
 * Prompts steer jobs: "fail" -> done with an error, "unsafe" -> done with every sample filtered
 * (raiMediaFilteredCount), "reject" -> the submit itself is refused (400). A job is done after
 * three steps of the virtual clock (`advance`), or `failJob(id)` fails one.
 */

/** The Gemini API key the fake accepts (another is refused as Google refuses an invalid key). */
export const FAKE_GEMINI_VEO_KEY = 'AIzaSyFakeVeoKey000000000000000000000';
export const FAKE_GEMINI_VEO_KEY_2 = 'AIzaSyFakeVeoKey000000000000000000002';

type Json = Record<string, unknown>;

export interface FakeVeoJob {
  id: string;
  surface: 'gemini' | 'vertex';
  /** The operation name the client polls. */
  name: string;
  model: string;
  /** Who may read it: the Gemini key, or the Vertex project. */
  owner: string;
  instance: Json;
  parameters: Json;
  createdAt: number;
  /** Fails once the clock passes `after` ms from the submit. */
  failure: { after: number; message: string } | null;
  filtered: boolean;
}

export interface FakeVeo {
  url: string;
  requests: RecordedRequest[];
  jobs: Map<string, FakeVeoJob>;
  advance(ms: number): void;
  /** Fails a running job at its next read. */
  failJob(id: string, message?: string): void;
  /** The bytes a job's file serves. */
  fileOf(id: string): Buffer;
  close(): Promise<void>;
}

const googleError = (code: number, status: string, message: string, details?: object[]) => ({
  error: { code, message, status, ...(details ? { details } : {}) },
});
const invalid = (message: string) => ({ status: 400, body: googleError(400, 'INVALID_ARGUMENT', message) });

const ASPECTS = new Set(['16:9', '9:16']);
const RESOLUTIONS = new Set(['720p', '1080p']);
const PERSONS = new Set(['allow_all', 'allow_adult', 'dont_allow']);
const INSTANCE_FIELDS = new Set(['prompt', 'image', 'lastFrame', 'referenceImages', 'video']);
const GEMINI_PARAMS = new Set([
  'aspectRatio',
  'durationSeconds',
  'resolution',
  'negativePrompt',
  'personGeneration',
  'sampleCount',
  'enhancePrompt',
]);
const VERTEX_PARAMS = new Set([...GEMINI_PARAMS, 'generateAudio', 'seed', 'storageUri', 'fps', 'compressionQuality']);

function checkImage(where: string, v: unknown, vertex: boolean): string | null {
  if (!v || typeof v !== 'object') return `${where} must be an object.`;
  const img = v as Json;
  const bytes = img.bytesBase64Encoded;
  if (vertex && typeof img.gcsUri === 'string') return null;
  if (typeof bytes !== 'string' || bytes === '') return `${where}.bytesBase64Encoded is required.`;
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(bytes)) return `Invalid value at '${where}.bytes_base64_encoded': not base64.`;
  if (typeof img.mimeType !== 'string' || !/^image\/(png|jpeg|webp)$/.test(img.mimeType))
    return `${where}.mimeType must be image/png, image/jpeg or image/webp.`;
  return null;
}

/** Checks a predictLongRunning body as Veo 3.x does; null when it is acceptable. */
function checkBody(model: string, body: Json, vertex: boolean): string | null {
  const instances = body.instances;
  if (!Array.isArray(instances) || instances.length !== 1) return 'instances must hold exactly one instance.';
  const inst = instances[0] as Json;
  for (const k of Object.keys(inst ?? {}))
    if (!INSTANCE_FIELDS.has(k)) return `Invalid JSON payload received. Unknown name "${k}" at 'instances[0]'.`;
  if ((typeof inst.prompt !== 'string' || !inst.prompt.trim()) && inst.image === undefined)
    return 'A prompt is required for text-to-video.';
  if (inst.image !== undefined) {
    const bad = checkImage('instances[0].image', inst.image, vertex);
    if (bad) return bad;
  }
  if (inst.lastFrame !== undefined) {
    if (!model.startsWith('veo-3.1')) return `lastFrame isn't supported by this model (${model}).`;
    if (inst.image === undefined) return 'lastFrame requires image (the first frame).';
    const bad = checkImage('instances[0].lastFrame', inst.lastFrame, vertex);
    if (bad) return bad;
  }
  const p = (body.parameters ?? {}) as Json;
  const allowed = vertex ? VERTEX_PARAMS : GEMINI_PARAMS;
  for (const k of Object.keys(p))
    if (!allowed.has(k)) return `Invalid JSON payload received. Unknown name "${k}" at 'parameters'.`;
  if (p.aspectRatio !== undefined && !ASPECTS.has(String(p.aspectRatio)))
    return `Aspect ratio ${String(p.aspectRatio)} is not supported. Supported: 16:9, 9:16.`;
  // Veo 2 makes 5 to 8 seconds at 720p and takes no resolution; Veo 3.x makes 4, 6 or 8.
  const veo2 = model.startsWith('veo-2');
  const durations = veo2 ? [5, 6, 7, 8] : [4, 6, 8];
  if (p.durationSeconds !== undefined && !durations.includes(Number(p.durationSeconds)))
    return `The number value for durationSeconds is out of bounds: ${String(p.durationSeconds)}. Supported: ${durations.join(', ')}.`;
  if (veo2 && p.resolution !== undefined) return `resolution isn't supported by this model (${model}).`;
  if (p.resolution !== undefined && !RESOLUTIONS.has(String(p.resolution)))
    return `Resolution ${String(p.resolution)} is not supported. Supported: 720p, 1080p.`;
  if (p.resolution === '1080p' && p.durationSeconds !== undefined && Number(p.durationSeconds) !== 8)
    return '1080p is only supported with durationSeconds 8.';
  if (p.personGeneration !== undefined && !PERSONS.has(String(p.personGeneration)))
    return `personGeneration ${String(p.personGeneration)} is not supported.`;
  if (p.sampleCount !== undefined && ![1, 2, 3, 4].includes(Number(p.sampleCount)))
    return 'sampleCount must be between 1 and 4.';
  if (p.negativePrompt !== undefined && typeof p.negativePrompt !== 'string') return 'negativePrompt must be a string.';
  return null;
}

const STEPS_TO_DONE = 3;

export async function startFakeVeo(opts: { port?: number; stepMs?: number } = {}): Promise<FakeVeo> {
  const stepMs = opts.stepMs ?? 1000;
  const clock = createClock();
  const tokens = createTokenIssuer();
  const jobs = new Map<string, FakeVeoJob>();
  const byName = new Map<string, FakeVeoJob>();
  const files = new Map<string, FakeVeoJob>();
  const fileId = (j: FakeVeoJob) => `${j.id}f`;
  let base = '';

  const failedWith = (j: FakeVeoJob) =>
    j.failure && clock.now() - j.createdAt >= j.failure.after ? j.failure.message : null;
  const isDone = (j: FakeVeoJob) => failedWith(j) !== null || clock.now() - j.createdAt >= STEPS_TO_DONE * stepMs;

  function geminiOperation(j: FakeVeoJob): Json {
    if (!isDone(j)) return { name: j.name };
    const failed = failedWith(j);
    if (failed !== null) return { name: j.name, done: true, error: { code: 13, message: failed } };
    const response: Json = {
      '@type': 'type.googleapis.com/google.ai.generativelanguage.v1beta.PredictLongRunningResponse',
    };
    response.generateVideoResponse = j.filtered
      ? {
          raiMediaFilteredCount: 1,
          raiMediaFilteredReasons: [
            "We encountered an issue with the audio for your prompt. You won't be charged for this request.",
          ],
        }
      : { generatedSamples: [{ video: { uri: `${base}/v1beta/files/${fileId(j)}:download?alt=media` } }] };
    return { name: j.name, done: true, response };
  }

  function vertexOperation(j: FakeVeoJob): Json {
    if (!isDone(j)) return { name: j.name };
    const failed = failedWith(j);
    if (failed !== null) return { name: j.name, done: true, error: { code: 13, message: failed } };
    const storage = typeof j.parameters.storageUri === 'string' ? j.parameters.storageUri.replace(/\/$/, '') : '';
    const videos = j.filtered
      ? []
      : [
          storage
            ? { gcsUri: `${storage}/${j.id}/sample_0.mp4`, mimeType: 'video/mp4' }
            : { bytesBase64Encoded: fakeMp4(j.id).toString('base64'), mimeType: 'video/mp4' },
        ];
    return {
      name: j.name,
      done: true,
      response: {
        '@type': 'type.googleapis.com/cloud.ai.large_models.vision.GenerateVideoResponse',
        raiMediaFilteredCount: j.filtered ? 1 : 0,
        ...(j.filtered ? { raiMediaFilteredReasons: ['The prompt was blocked by the responsible AI filter.'] } : {}),
        videos,
      },
    };
  }

  function newJob(surface: FakeVeoJob['surface'], model: string, owner: string, prefix: string, body: Json) {
    const id = surface === 'gemini' ? randomBytes(6).toString('hex') : randomUUID();
    const inst = (body.instances as Json[])[0];
    const prompt = String(inst.prompt ?? '');
    const job: FakeVeoJob = {
      id,
      surface,
      name: `${prefix}models/${model}/operations/${id}`,
      model,
      owner,
      instance: inst,
      parameters: (body.parameters ?? {}) as Json,
      createdAt: clock.now(),
      // A job asked to fail runs a step first, as a real one fails some time after the submit.
      failure: prompt.includes('fail')
        ? { after: stepMs, message: 'Video generation failed: the fake was asked to fail.' }
        : null,
      filtered: prompt.includes('unsafe'),
    };
    jobs.set(id, job);
    byName.set(job.name, job);
    files.set(fileId(job), job);
    return job;
  }

  const geminiKeyOf = (req: IncomingMessage, url: URL) =>
    String(req.headers['x-goog-api-key'] ?? url.searchParams.get('key') ?? '');

  function geminiAuth(key: string) {
    if (!key)
      return {
        status: 403,
        body: googleError(
          403,
          'PERMISSION_DENIED',
          "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
        ),
      };
    if (key !== FAKE_GEMINI_VEO_KEY && key !== FAKE_GEMINI_VEO_KEY_2)
      return {
        status: 400,
        body: googleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
        ]),
      };
    return null;
  }

  const notFound = (what: string) => ({ status: 404, body: googleError(404, 'NOT_FOUND', `${what} not found.`) });

  const srv = await startRecordingServer(async (req, res, body, raw) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = decodeURIComponent(url.pathname);
    const send = (o: { status: number; body: unknown }) => sendJson(res, o.status, o.body);

    if (req.method === 'POST' && path === '/token') {
      const t = tokens.exchange(raw);
      return sendJson(res, t.status, t.body);
    }

    // ---- Gemini API ----
    let m = /^\/v1beta\/models\/([^/:]+):predictLongRunning$/.exec(path);
    if (m && req.method === 'POST') {
      const key = geminiKeyOf(req, url);
      const refused = geminiAuth(key);
      if (refused) return send(refused);
      const model = m[1];
      if (!/^veo-/.test(model))
        return send(
          notFound(
            `models/${model} is not found for API version v1beta, or is not supported for predictLongRunning. Model`,
          ),
        );
      const bad = checkBody(model, body, false);
      if (bad) return send(invalid(bad));
      if (String((body.instances as Json[])[0].prompt ?? '').includes('reject'))
        return send(invalid('The prompt could not be submitted: it violates the usage guidelines.'));
      const job = newJob('gemini', model, key, '', body);
      return sendJson(res, 200, { name: job.name });
    }
    m = /^\/v1beta\/(models\/[^/]+\/operations\/[^/]+)$/.exec(path);
    if (m && req.method === 'GET') {
      const key = geminiKeyOf(req, url);
      const refused = geminiAuth(key);
      if (refused) return send(refused);
      const job = byName.get(m[1]);
      if (!job || job.surface !== 'gemini' || job.owner !== key) return send(notFound(`Operation ${m[1]}`));
      return sendJson(res, 200, geminiOperation(job));
    }
    m = /^\/v1beta\/files\/([a-z0-9]+):download$/.exec(path);
    if (m && req.method === 'GET') {
      const key = geminiKeyOf(req, url);
      const refused = geminiAuth(key);
      if (refused) return send(refused);
      const job = files.get(m[1]);
      if (!job || job.owner !== key || !isDone(job) || failedWith(job) !== null)
        return send(notFound(`File files/${m[1]}`));
      if (url.searchParams.get('alt') !== 'media')
        return sendJson(res, 200, { name: `files/${m[1]}`, mimeType: 'video/mp4', state: 'ACTIVE' });
      return sendRanged(req, res, fakeMp4(job.id));
    }

    // ---- Vertex AI ----
    m =
      /^\/v1\/(?:projects\/([^/]+)\/locations\/([^/]+)\/)?publishers\/google\/models\/([^/:]+):(predictLongRunning|fetchPredictOperation)$/.exec(
        path,
      );
    if (m && req.method === 'POST') {
      const [, project, location, model, action] = m;
      let owner: string;
      if (project === undefined) {
        const key = geminiKeyOf(req, url);
        if (key !== FAKE_VERTEX_API_KEY) {
          const refused = geminiAuth(key);
          // Express mode refuses a wrong key as the Gemini API does (400 API_KEY_INVALID, 403 without one).
          return send(refused ?? geminiAuth('AIza-wrong')!);
        }
        owner = `express:${key}`;
      } else {
        if (!tokens.valid(req.headers.authorization))
          return send({
            status: 401,
            body: googleError(
              401,
              'UNAUTHENTICATED',
              'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
            ),
          });
        if (project !== FAKE_VERTEX_PROJECT)
          return send({
            status: 403,
            body: googleError(
              403,
              'PERMISSION_DENIED',
              `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/projects/${project}' (or it may not exist).`,
            ),
          });
        owner = project;
      }
      if (!/^veo-/.test(model))
        return send(
          notFound(`Publisher Model \`projects/${project}/locations/${location}/publishers/google/models/${model}\``),
        );
      const prefix =
        project === undefined ? 'publishers/google/' : `projects/${project}/locations/${location}/publishers/google/`;
      if (action === 'predictLongRunning') {
        const bad = checkBody(model, body, true);
        if (bad) return send(invalid(bad));
        if (String((body.instances as Json[])[0].prompt ?? '').includes('reject'))
          return send(invalid('The prompt could not be submitted: it violates the usage guidelines.'));
        const job = newJob('vertex', model, owner, prefix, body);
        return sendJson(res, 200, { name: job.name });
      }
      const opName = body.operationName;
      if (typeof opName !== 'string' || !opName) return send(invalid('operationName is required.'));
      if (!opName.startsWith(`${prefix}models/${model}/operations/`))
        return send(invalid(`operationName ${opName} does not belong to ${prefix}models/${model}.`));
      const job = byName.get(opName);
      if (!job || job.surface !== 'vertex' || job.owner !== owner) return send(notFound(`Operation ${opName}`));
      return sendJson(res, 200, vertexOperation(job));
    }
    m = /^\/storage\/v1\/b\/([^/]+)\/o\/(.+)$/.exec(path);
    if (m && req.method === 'GET') {
      if (!tokens.valid(req.headers.authorization))
        return send({
          status: 401,
          body: googleError(401, 'UNAUTHENTICATED', 'Anonymous caller does not have storage.objects.get access.'),
        });
      // Objects are `{storageUri path}/{job id}/sample_0.mp4`.
      const job = jobs.get(m[2].split('/').at(-2) ?? '');
      const storage = job && typeof job.parameters.storageUri === 'string' ? job.parameters.storageUri : '';
      if (!job || !storage.startsWith(`gs://${m[1]}`) || !isDone(job) || failedWith(job) !== null)
        return send(notFound(`No such object: ${m[1]}/${m[2]}`));
      if (url.searchParams.get('alt') !== 'media')
        return sendJson(res, 200, { bucket: m[1], name: m[2], contentType: 'video/mp4' });
      return sendRanged(req, res, fakeMp4(job.id));
    }
    return send(notFound(`The requested URL ${url.pathname}`));
  }, opts.port ?? 0);
  base = srv.url;

  return {
    url: srv.url,
    requests: srv.requests,
    jobs,
    advance: clock.advance,
    failJob(id, message = 'Video generation failed: an internal error occurred.') {
      const j = jobs.get(id);
      if (j) j.failure = { after: 0, message };
    },
    fileOf: (id) => fakeMp4(id),
    close: srv.close,
  };
}
