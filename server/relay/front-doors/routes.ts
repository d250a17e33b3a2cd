import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { countTokensHandlers, isGeminiCountTokens } from '../count-tokens.ts';
import { googleVideoSubmit, isVeoSubmit } from '../tasks/video/doors/google.ts';
import { refusal } from '../errors.ts';
import type { RelayMode } from '../providers/types.ts';
import type { RelayRuntime } from '../runtime.ts';
import { anthropicDoor } from './anthropic/door.ts';
import { geminiDoor } from './gemini/door.ts';
import { imagenDoor, isImagenPredict } from './imagen/door.ts';
import { responsesDoor } from './responses/door.ts';
import { geminiModels } from './models.ts';
import { multipartToBody, parseMultipart } from './multipart.ts';

/** OpenAI's own upload limit for audio files. */
const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
import type { FrontDoor } from './types.ts';

type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** The Anthropic and Gemini front doors and the newer OpenAI endpoints (relay.md §1); `handleFor` runs the relay. */
export function registerFrontDoors(
  app: FastifyInstance,
  rt: RelayRuntime,
  handleFor: (mode: RelayMode, door?: FrontDoor) => Handler,
): void {
  app.post('/v1/messages', handleFor('chat', anthropicDoor));
  // Token counting (count-tokens.ts): Gemini's :countTokens shares generateContent's path pattern, told apart by its suffix.
  const count = countTokensHandlers(rt);
  const geminiGenerate = handleFor('chat', geminiDoor);
  app.post('/v1/messages/count_tokens', count.anthropic);
  // Veo's :predictLongRunning (@google/genai generateVideos) is a video job: Google's video door takes it.
  const veoSubmit = googleVideoSubmit(rt);
  // Imagen's :predict (@google/genai generateImages): an image call on any image upstream (issue 44).
  const imagenPredict = handleFor('images', imagenDoor);
  const googleModelCall = (req: FastifyRequest, reply: FastifyReply) =>
    isGeminiCountTokens(req)
      ? count.gemini(req, reply)
      : isVeoSubmit(req)
        ? veoSubmit(req, reply)
        : isImagenPredict(req)
          ? imagenPredict(req, reply)
          : geminiGenerate(req, reply);
  app.post('/v1beta/models/*', googleModelCall);
  // Gemini's stable version: @google/genai 3 calls `/v1/models/{model}:generateContent` unless told
  // otherwise (apiVersion), as do clients set to v1. Only POST: GET /v1/models is every SDK's model list.
  app.post('/v1/models/*', googleModelCall);
  // Vertex AI express mode's paths (an API key, no project): @google/genai only sends generateImages
  // there (`vertexai: true`); generateContent on the same paths reaches the Gemini door.
  app.post('/v1beta1/publishers/*', (req, reply) =>
    isImagenPredict(req) ? imagenPredict(req, reply) : geminiGenerate(req, reply),
  );
  // Responses: natively to channels that speak it, through the canonical chat form to every other one.
  app.post('/v1/responses', handleFor('chat', responsesDoor));
  // Codex first asks for the Responses WebSocket (GET with Upgrade); a 404 makes it retry five times
  // (about 5 s a session) before it falls back to HTTP, a 426 makes it fall back at once.
  app.get('/v1/responses', async () => {
    throw refusal(
      426,
      'This gateway serves the Responses API over HTTP only (POST /v1/responses), not over WebSocket.',
      '本网关仅通过 HTTP（POST /v1/responses）提供 Responses API，不支持 WebSocket。',
      'websocket_not_supported',
    );
  });
  // The rest of OpenAI's JSON surface: relayed natively to OpenAI-style channels.
  app.post('/v1/moderations', handleFor('moderations'));
  app.post('/v1/rerank', handleFor('rerank'));
  app.post('/v1/images/generations', handleFor('images'));
  app.post('/v1/audio/speech', handleFor('speech'));
  // Uploads: the multipart parser lives in its own scope so no other route accepts multipart bodies.
  void app.register(async (scope) => {
    // The multipart limit, for a 413 to name (compat/envelope.ts bodyLimitOf).
    const upload = { config: { multipartBodyLimit: MAX_UPLOAD_BYTES } };
    scope.addContentTypeParser(
      'multipart/form-data',
      { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES },
      (req, body, done) => {
        try {
          done(null, multipartToBody(parseMultipart(body as Buffer, String(req.headers['content-type']))));
        } catch (err) {
          done(err as Error, undefined);
        }
      },
    );
    scope.post('/v1/images/edits', upload, handleFor('image_edits'));
    scope.post('/v1/audio/transcriptions', upload, handleFor('transcriptions'));
    scope.post('/v1/audio/translations', upload, handleFor('translations'));
  });
  app.get('/v1beta/models', async (req) => geminiModels(rt, await rt.tokenAuth.authenticate(req)));
}
