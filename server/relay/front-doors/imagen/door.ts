import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { relayRefusal, schemaRefusal } from '../../errors.ts';
import type { ImagesAnswer } from '../../images/image-answer.ts';
import { sniffMime } from '../../images/image-request.ts';
import type { InlineImage } from '../../providers/shared/images.ts';
import { doorImageBody, formatOfMime } from '../image-body.ts';
import type { FrontDoor } from '../types.ts';

/*
 * Imagen's `:predict` (issue 44): what @google/genai's `models.generateImages` sends (on Vertex AI
 * paths: `/v1beta1/publishers/google/models/{m}:predict`; the SDK refuses it on the Gemini API's
 * client, where raw callers and new-api's own relay use `/v1beta/models/{m}:predict`). Any image
 * model of any upstream serves it: the request becomes the canonical OpenAI images body, the
 * pictures come back as Imagen's `predictions`. Errors are Google's (the relay's gemini dialect,
 * every /v1beta path).
 */

/**
 * The model of a :predict path; undefined for any other path. The wildcard is what follows
 * `/v1beta/models/` (`{model}:predict`) or `/v1beta1/publishers/` (`{publisher}/models/{model}:predict`:
 * @google/genai names `owner/name` models such as `black-forest-labs/flux-schnell` as their publisher).
 */
export function imagenTarget(req: FastifyRequest): string | undefined {
  const rest = decodeURIComponent((req.params as { '*'?: string })['*'] ?? '');
  const m = /^(?:([^/]+)\/models\/)?([^/]+):predict$/.exec(rest);
  if (!m) return undefined;
  return m[1] && m[1] !== 'google' ? `${m[1]}/${m[2]}` : m[2];
}

export const isImagenPredict = (req: FastifyRequest) => imagenTarget(req) !== undefined;

const bytes = z.looseObject({ bytesBase64Encoded: z.string().optional(), mimeType: z.string().optional() });

/** The :predict body as far as the gateway reads it (Imagen's generate and, on Vertex AI, its edit). */
const predictBody = z.looseObject({
  instances: z
    .array(
      z.looseObject({
        prompt: z.string({ message: 'instances[0].prompt is required' }),
        image: bytes.optional(),
        referenceImages: z
          .array(z.looseObject({ referenceType: z.string().optional(), referenceImage: bytes.optional() }))
          .optional(),
      }),
      { message: 'instances is required' },
    )
    .min(1, 'instances is required')
    .max(1, 'Imagen takes one instance per request'),
  parameters: z
    .looseObject({
      sampleCount: z.number().int().min(1, 'sampleCount must be at least 1').optional(),
      aspectRatio: z.string().optional(),
      negativePrompt: z.string().optional(),
      personGeneration: z.string().optional(),
      seed: z.number().int().optional(),
      outputOptions: z.looseObject({ mimeType: z.string().optional() }).optional(),
    })
    .optional(),
});

/** Imagen's default when sampleCount is not given (Google's documented default). */
const DEFAULT_SAMPLES = 4;

const inline = (b: z.infer<typeof bytes> | undefined): InlineImage | undefined =>
  b?.bytesBase64Encoded
    ? {
        mediaType: b.mimeType ?? sniffMime(Buffer.from(b.bytesBase64Encoded.slice(0, 24), 'base64')),
        data: b.bytesBase64Encoded,
      }
    : undefined;

/** The canonical answer as Imagen's: one prediction per picture, the revised prompt as `prompt`. */
export function imagenAnswer(answer: ImagesAnswer): string {
  const predictions = answer.data.map((d) => {
    const prompt = d.revised_prompt ? { prompt: d.revised_prompt } : {};
    if (d.b64_json) {
      const mimeType = d._mime ?? sniffMime(Buffer.from(d.b64_json.slice(0, 24), 'base64'));
      return { bytesBase64Encoded: d.b64_json, mimeType, ...prompt };
    }
    // Only when delivery left a link (it fetches bytes for a door that asks base64): Vertex's stored-output form.
    return { gcsUri: d.url ?? '', mimeType: d._mime ?? 'image/png', ...prompt };
  });
  return JSON.stringify({ predictions });
}

/** POST .../models/{model}:predict on an image model. */
export const imagenDoor: FrontDoor = {
  protocol: 'imagen',

  parse(req) {
    const model = imagenTarget(req);
    if (!model) throw relayRefusal(404, 'relay.endpoint_unsupported', 'not_found', { path: req.url.split('?')[0] });
    const parsed = predictBody.safeParse(req.body ?? {});
    if (!parsed.success) throw schemaRefusal(parsed.error.issues[0]?.message, 'invalid_argument');
    const [instance] = parsed.data.instances;
    const p = parsed.data.parameters ?? {};
    const refs = instance.referenceImages ?? [];
    // An edit (Vertex AI's Imagen capability models): the raw, subject and style references are the
    // pictures, a mask reference the mask.
    const isMask = (t: string | undefined) => /MASK/i.test(t ?? '');
    const images = [
      inline(instance.image),
      ...refs.filter((r) => !isMask(r.referenceType)).map((r) => inline(r.referenceImage)),
    ];
    const mask = refs.filter((r) => isMask(r.referenceType)).map((r) => inline(r.referenceImage))[0];
    const { mode, canonical } = doorImageBody({
      model,
      prompt: instance.prompt,
      n: p.sampleCount ?? DEFAULT_SAMPLES,
      aspectRatio: p.aspectRatio,
      negativePrompt: p.negativePrompt,
      personGeneration: p.personGeneration,
      seed: p.seed,
      outputFormat: formatOfMime(p.outputOptions?.mimeType),
      images: images.filter((i): i is InlineImage => i !== undefined),
      mask,
    });
    return { mode, canonical, body: parsed.data };
  },

  convertImages: (_ok, answer) => imagenAnswer(answer),

  // No adapter speaks `imagen` natively: every attempt is converted and answered by convertImages.
  convertResponse: (_ok, text) => ({ body: text }),
  createStreamConverter() {
    throw new Error('Imagen answers are not streamed');
  },
};
