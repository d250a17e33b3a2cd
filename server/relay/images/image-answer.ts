import { unparsableUpstreamJson } from '../providers/shared/error-body.ts';
import type { Usage } from '../providers/types.ts';

/*
 * What an image adapter answers: OpenAI's images JSON (`{created, data: [{b64_json | url,
 * revised_prompt}], usage?}`), built by `imagesAnswer` from the pictures the upstream produced.
 * Two marks ride on an item until the relay delivers the answer (delivery.ts), which strips them:
 * `_private` (the URL needs the upstream's key or would show the upstream's host: the gateway fetches
 * it and serves it itself) and `_mime` (the type of a base64 picture, for a link or a Gemini part).
 */

/** One picture an upstream produced: its bytes (base64) or a URL to them. */
export interface GeneratedImage {
  b64?: string;
  url?: string;
  /** e.g. image/png; absent = read from the bytes when needed. */
  mimeType?: string;
  revisedPrompt?: string;
  /** The URL is not for the client's eyes (see above). */
  private?: boolean;
}

/** One item of the canonical answer's `data`, marks included. */
export interface ImageDatum {
  b64_json?: string;
  url?: string;
  revised_prompt?: string;
  _private?: true;
  _mime?: string;
}

/** The canonical answer as the relay reads it back (delivery.ts, the Gemini door). */
export interface ImagesAnswer {
  created: number;
  data: ImageDatum[];
  /** gpt-image's token usage, or the upstream's converted to OpenAI's image usage shape. */
  usage?: { input_tokens: number; output_tokens: number; total_tokens: number };
  [k: string]: unknown;
}

/** Pictures -> the canonical answer's JSON; `usage` when the upstream reported tokens. */
export function imagesAnswer(images: GeneratedImage[], usage?: Usage, extra?: Record<string, unknown>): string {
  const data = images.map((img): ImageDatum => {
    const d: ImageDatum = {};
    if (img.b64 !== undefined) d.b64_json = img.b64;
    else if (img.url !== undefined) d.url = img.url;
    if (img.revisedPrompt) d.revised_prompt = img.revisedPrompt;
    if (img.private && d.url) d._private = true;
    if (img.mimeType) d._mime = img.mimeType;
    return d;
  });
  const answer: ImagesAnswer = { created: Math.floor(Date.now() / 1000), ...extra, data };
  if (usage)
    answer.usage = {
      input_tokens: usage.promptTokens,
      output_tokens: usage.completionTokens,
      total_tokens: usage.promptTokens + usage.completionTokens,
    };
  return JSON.stringify(answer);
}

/** Reads a canonical (or OpenAI upstream's) images answer; an unreadable one is the upstream's fault (502). */
export function parseImagesAnswer(text: string): ImagesAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw unparsableUpstreamJson();
  }
  const a = parsed as Partial<ImagesAnswer>;
  return { ...a, created: a.created ?? Math.floor(Date.now() / 1000), data: Array.isArray(a.data) ? a.data : [] };
}

/** Usage of OpenAI's images answer (gpt-image reports `input_tokens`/`output_tokens`). */
export function usageOfImagesAnswer(a: ImagesAnswer): Usage | undefined {
  const u = a.usage;
  if (!u || typeof u.input_tokens !== 'number') return undefined;
  return {
    promptTokens: u.input_tokens,
    completionTokens: u.output_tokens ?? 0,
    cachedTokens: 0,
    cacheCreationTokens: 0,
  };
}

/** Common `size` -> aspect ratio, for upstreams that take a ratio (Imagen, Gemini, MiniMax...): nearest of theirs. */
export function aspectRatioOf(
  width: number,
  height: number,
  allowed: readonly string[] = ['1:1', '3:4', '4:3', '9:16', '16:9'],
): string {
  const want = width / height;
  let best = allowed[0];
  let bestGap = Infinity;
  for (const r of allowed) {
    const [w, h] = r.split(':').map(Number);
    const gap = Math.abs(Math.log(w / h / want));
    if (gap < bestGap) [best, bestGap] = [r, gap];
  }
  return best;
}
