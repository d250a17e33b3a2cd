import { type FormPart, PARTS } from '../front-doors/multipart.ts';
import type { RelayMode } from '../providers/types.ts';
import type { InlineImage } from '../providers/shared/images.ts';

/*
 * The images contract (issue 44). The relay's canonical image request is OpenAI's: the JSON body of
 * `/v1/images/generations`, or the multipart body of `/v1/images/edits` (its parts kept under PARTS,
 * front-doors/multipart.ts). Doors that speak another dialect (Gemini's generateContent with image
 * output, Imagen's :predict) build the same canonical body (`canonicalEditBody` for an edit), and every
 * image adapter (providers/<name>/images.ts) reads it through `readImageRequest` instead of reading
 * the body's fields itself. Adapters answer OpenAI's images JSON (image-answer.ts); the relay then
 * delivers it as the client asked (delivery.ts) and bills per image or per token (price.ts).
 */

/** The relay modes that generate images. */
export const isImageMode = (mode: RelayMode): mode is 'images' | 'image_edits' =>
  mode === 'images' || mode === 'image_edits';

export type ImageResponseFormat = 'url' | 'b64_json';

/** What the client asked for, in the gateway's words. */
export interface ImageRequest {
  /** An edit (`/v1/images/edits`, or a door request carrying input images). */
  edit: boolean;
  prompt: string;
  /** Images asked for (OpenAI's `n`, default 1). */
  n: number;
  /** OpenAI's `size` as given: `WIDTHxHEIGHT` or `auto`; absent = the model's default. */
  size?: string;
  /** e.g. `1:1`, `16:9`: given by the Gemini and Imagen doors (or a client's own `aspect_ratio`). */
  aspectRatio?: string;
  /** OpenAI's `quality`: `standard`/`hd` (DALL-E 3), `low`/`medium`/`high`/`auto` (gpt-image-1). */
  quality?: string;
  style?: string;
  /** What the client wants back; absent = the model's default (a URL for DALL-E, base64 for gpt-image). */
  responseFormat?: ImageResponseFormat;
  /** `png`, `jpeg` or `webp` (gpt-image-1's `output_format`, Replicate's and others' too). */
  outputFormat?: string;
  background?: string;
  negativePrompt?: string;
  seed?: number;
  /** Imagen's `personGeneration` (`dont_allow`, `allow_adult`, `allow_all`), from `person_generation`. */
  personGeneration?: string;
  /** The input images of an edit, in the order given (multipart `image` / `image[]` files). */
  images: InlineImage[];
  /** The edit's mask (multipart `mask` file). */
  mask?: InlineImage;
  /** Every other field the client sent, for upstream-specific options an adapter may pass on (e.g. `watermark`). */
  extra: Record<string, unknown>;
}

/** Fields `readImageRequest` reads itself; everything else lands in `extra`. */
const KNOWN = new Set([
  'model',
  'prompt',
  'n',
  'size',
  'aspect_ratio',
  'quality',
  'style',
  'response_format',
  'output_format',
  'background',
  'negative_prompt',
  'seed',
  'person_generation',
  'image',
  'image[]',
  'mask',
  PARTS,
]);

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
const num = (v: unknown) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

const inline = (p: FormPart): InlineImage => ({
  mediaType: p.contentType && p.contentType !== 'application/octet-stream' ? p.contentType : sniffMime(p.data),
  data: p.data.toString('base64'),
});

/** The image type by its first bytes, for uploads sent without a content type. */
export function sniffMime(data: Buffer): string {
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (data[0] === 0xff && data[1] === 0xd8) return 'image/jpeg';
  if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  if (data.subarray(0, 3).toString('latin1') === 'GIF') return 'image/gif';
  return 'image/png';
}

/** The canonical image body (validated by relay/schemas.ts) as the gateway's ImageRequest. */
export function readImageRequest(mode: RelayMode, body: Record<string, unknown>): ImageRequest {
  const parts = (Array.isArray(body[PARTS]) ? body[PARTS] : []) as FormPart[];
  const files = parts.filter((p) => p.filename !== undefined);
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (!KNOWN.has(k) && v !== null && v !== undefined) extra[k] = v;
  const format = str(body.response_format);
  return {
    edit: mode === 'image_edits',
    prompt: typeof body.prompt === 'string' ? body.prompt : '',
    n: Math.max(1, Math.trunc(num(body.n) ?? 1)),
    size: str(body.size),
    aspectRatio: str(body.aspect_ratio),
    quality: str(body.quality),
    style: str(body.style),
    responseFormat: format === 'url' || format === 'b64_json' ? format : undefined,
    outputFormat: str(body.output_format),
    background: str(body.background),
    negativePrompt: str(body.negative_prompt),
    seed: num(body.seed),
    personGeneration: str(body.person_generation),
    images: files.filter((p) => p.name === 'image' || p.name === 'image[]').map(inline),
    mask: files.filter((p) => p.name === 'mask').map(inline)[0],
    extra,
  };
}

/**
 * A canonical edit body built by a door (not from a client's multipart): the text fields and the
 * images as the parts a multipart upload would have had, so an OpenAI channel re-sends it as one.
 */
export function canonicalEditBody(
  fields: Record<string, string | number | undefined>,
  images: InlineImage[],
  mask?: InlineImage,
): Record<string, unknown> {
  const parts: FormPart[] = [];
  const body: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    body[name] = v;
    parts.push({ name, data: Buffer.from(String(v)) });
  }
  const file = (name: string, img: InlineImage, i: number): FormPart => ({
    name,
    filename: `${name === 'mask' ? 'mask' : `image-${i + 1}`}.${img.mediaType.split('/')[1] ?? 'png'}`,
    contentType: img.mediaType,
    data: Buffer.from(img.data, 'base64'),
  });
  images.forEach((img, i) => parts.push(file(images.length > 1 ? 'image[]' : 'image', img, i)));
  if (mask) parts.push(file('mask', mask, 0));
  body[PARTS] = parts;
  return body;
}

/** `WIDTHxHEIGHT` -> numbers; undefined for `auto` or anything else. */
export function pixelSize(size: string | undefined): { width: number; height: number } | undefined {
  const m = /^(\d+)\s*[x*×]\s*(\d+)$/i.exec(size ?? '');
  return m ? { width: Number(m[1]), height: Number(m[2]) } : undefined;
}
