import { canonicalEditBody } from '../images/image-request.ts';
import type { InlineImage } from '../providers/shared/images.ts';

/*
 * The canonical OpenAI images body a Google door builds (issue 44): Gemini's generateContent on an
 * image model and Imagen's :predict ask in aspect ratios and Google's option names, while an OpenAI
 * channel relays the canonical body as it is and OpenAI refuses every parameter it does not know.
 * So OpenAI's own models (gpt-image, dall-e) get only OpenAI's fields, the ratio turned into one of
 * their sizes; every other model keeps `aspect_ratio` and Google's options, which the image upstreams
 * read through readImageRequest (images/image-request.ts).
 */

/** What a Google door read from its request. */
export interface DoorImageAsk {
  model: string;
  prompt: string;
  n: number;
  aspectRatio?: string;
  negativePrompt?: string;
  personGeneration?: string;
  seed?: number;
  /** `png`, `jpeg` or `webp`. */
  outputFormat?: string;
  /** Input pictures: the call is an edit. */
  images: InlineImage[];
  /** The edit's mask (Imagen's mask reference). */
  mask?: InlineImage;
}

const ratioOf = (r: string | undefined) => {
  const m = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(r ?? '');
  return m ? Number(m[1]) / Number(m[2]) : undefined;
};

/** OpenAI's size for an aspect ratio: square, landscape or portrait in the sizes the model makes. */
export function openAISizeOf(model: string, aspectRatio: string | undefined): string | undefined {
  const r = ratioOf(aspectRatio);
  if (r === undefined) return undefined;
  const shape = r > 1.1 ? 'wide' : r < 0.9 ? 'tall' : 'square';
  if (/^dall-e-2/i.test(model)) return '1024x1024';
  const long = /^dall-e/i.test(model) ? 1792 : 1536;
  return shape === 'wide' ? `${long}x1024` : shape === 'tall' ? `1024x${long}` : '1024x1024';
}

/** OpenAI's own image models, whose API refuses fields it does not know. */
export const isOpenAIImageModel = (model: string) => /^(gpt-image|dall-e|chatgpt-image)/i.test(model);

/**
 * The canonical body: base64 answers wanted (a Google client gets inline bytes), except from
 * gpt-image, which always answers base64 and refuses `response_format`.
 */
export function doorImageBody(ask: DoorImageAsk): {
  mode: 'images' | 'image_edits';
  canonical: Record<string, unknown>;
} {
  const openai = isOpenAIImageModel(ask.model);
  const fields: Record<string, string | number | undefined> = {
    model: ask.model,
    prompt: ask.prompt,
    n: ask.n,
    response_format: /^(gpt-image|chatgpt-image)/i.test(ask.model) ? undefined : 'b64_json',
  };
  if (openai) {
    fields.size = openAISizeOf(ask.model, ask.aspectRatio);
    if (/^(gpt-image|chatgpt-image)/i.test(ask.model)) fields.output_format = ask.outputFormat;
  } else {
    fields.aspect_ratio = ask.aspectRatio;
    fields.negative_prompt = ask.negativePrompt;
    fields.person_generation = ask.personGeneration;
    fields.seed = ask.seed;
    fields.output_format = ask.outputFormat;
  }
  if (ask.images.length > 0) return { mode: 'image_edits', canonical: canonicalEditBody(fields, ask.images, ask.mask) };
  const canonical: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) canonical[k] = v;
  return { mode: 'images', canonical };
}

/** `image/jpeg` -> `jpeg`; undefined for anything that is not an image type. */
export const formatOfMime = (mime: unknown) =>
  typeof mime === 'string' && /^image\/(png|jpeg|jpg|webp)$/i.test(mime)
    ? mime.slice(6).toLowerCase().replace('jpg', 'jpeg')
    : undefined;
