import { errorText } from './chat-stream.ts';

/*
 * The playground's image calls (issue 44), through the console's image doors (/pg/images/generations and
 * /pg/images/edits: the session pays, as on /pg/chat/completions). No macros here: vitest may import it.
 */

export interface ImageAsk {
  group: string;
  model: string;
  prompt: string;
  /** '' = the model's default. */
  size: string;
  n: number;
  /** An edit's input picture; none = a generation. */
  image: File | null;
  mask: File | null;
}

/** One picture to show: a data URL (base64 answers) or a URL the browser can load. */
export interface Picture {
  src: string;
  revisedPrompt?: string;
}

export interface ImageResult {
  pictures: Picture[];
  /** The gateway's x-request-id, to find the call's log row (its cost). */
  requestId: string;
}

interface ImagesAnswer {
  data?: { b64_json?: string; url?: string; revised_prompt?: string }[];
}

/**
 * gpt-image models always answer base64 and their API refuses `response_format`; every other model is
 * asked for base64 too, so the pictures show without a second request that would need an API key.
 */
const answersBase64Only = (model: string) => /^gpt-image/i.test(model.replace(/^.*\//, ''));

/** The sniffed type of a base64 picture, for its data URL (PNG unless the bytes say otherwise). */
export function mimeOfBase64(b64: string): string {
  if (b64.startsWith('/9j/')) return 'image/jpeg';
  if (b64.startsWith('UklGR')) return 'image/webp';
  if (b64.startsWith('R0lGOD')) return 'image/gif';
  return 'image/png';
}

export function picturesOf(answer: ImagesAnswer): Picture[] {
  return (answer.data ?? []).flatMap((d) => {
    const src = d.b64_json ? `data:${mimeOfBase64(d.b64_json)};base64,${d.b64_json}` : d.url;
    return src ? [{ src, ...(d.revised_prompt ? { revisedPrompt: d.revised_prompt } : {}) }] : [];
  });
}

/** The file name a picture downloads as: the model and its place, with the picture's own extension. */
export function downloadName(model: string, index: number, src: string): string {
  const ext = /^data:image\/(\w+)/.exec(src)?.[1]?.replace('jpeg', 'jpg') ?? 'png';
  return `${model.replace(/[^\w.-]+/g, '_')}-${index + 1}.${ext}`;
}

async function answer(res: Response): Promise<ImageResult> {
  if (!res.ok) throw new Error(await errorText(res));
  const pictures = picturesOf((await res.json()) as ImagesAnswer);
  return { pictures, requestId: res.headers.get('x-request-id') ?? '' };
}

export async function runImages(ask: ImageAsk, headers: Record<string, string>): Promise<ImageResult> {
  const format = answersBase64Only(ask.model) ? {} : { response_format: 'b64_json' };
  if (!ask.image) {
    const body = {
      model: ask.model,
      prompt: ask.prompt,
      group: ask.group,
      n: ask.n,
      ...(ask.size ? { size: ask.size } : {}),
      ...format,
    };
    return answer(
      await fetch('/pg/images/generations', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }),
    );
  }
  // An edit is OpenAI's multipart upload; the browser sets the boundary.
  const form = new FormData();
  form.set('model', ask.model);
  form.set('prompt', ask.prompt);
  form.set('group', ask.group);
  form.set('n', String(ask.n));
  if (ask.size) form.set('size', ask.size);
  if (format.response_format) form.set('response_format', format.response_format);
  form.set('image', ask.image, ask.image.name);
  if (ask.mask) form.set('mask', ask.mask, ask.mask.name);
  return answer(await fetch('/pg/images/edits', { method: 'POST', headers, body: form }));
}
