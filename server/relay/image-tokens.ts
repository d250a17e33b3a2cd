import { imageSize } from 'image-size';

/*
 * Image parts of a prompt by OpenAI's tile rule (relay.md §5), for reservations and answers
 * without usage: `detail: low` costs 85; otherwise (high, auto or none) the image is scaled to fit
 * within 2048 x 2048, then so its shortest side is at most 768 px, and costs 170 per 512-px tile
 * it then covers, plus 85.
 */

const LOW_DETAIL_TOKENS = 85;
const TILE_TOKENS = 170;
const BASE_TOKENS = 85;
/** An image whose size is unknown is taken as one tile. */
const UNKNOWN_SIZE_TOKENS = TILE_TOKENS + BASE_TOKENS;

/** Tokens of one `width` x `height` image at this detail. */
export function tileTokens(width: number, height: number, detail?: string): number {
  if (detail === 'low') return LOW_DETAIL_TOKENS;
  if (!(width > 0 && height > 0)) return UNKNOWN_SIZE_TOKENS;
  let w = width;
  let h = height;
  // Integer products first, so 3000 x 1000 scales to exactly 2048 x 682 (whole pixels, as OpenAI counts).
  const longest = Math.max(w, h);
  if (longest > 2048) [w, h] = [Math.floor((w * 2048) / longest), Math.floor((h * 2048) / longest)];
  const shortest = Math.min(w, h);
  if (shortest > 768) [w, h] = [Math.floor((w * 768) / shortest), Math.floor((h * 768) / shortest)];
  return Math.ceil(w / 512) * Math.ceil(h / 512) * TILE_TOKENS + BASE_TOKENS;
}

/**
 * Base64 characters decoded first (32 KiB): PNG, GIF, WebP and BMP give their size in the first
 * bytes, and most JPEGs within this; a JPEG with large metadata before its frame header is decoded whole.
 */
const PREFIX_CHARS = Math.ceil((32 * 1024) / 3) * 4;

/** Width and height of a base64 `data:` URL image; undefined when it is not one or cannot be read. */
export function dataUrlImageSize(url: string): { width: number; height: number } | undefined {
  if (!url.startsWith('data:')) return undefined;
  const comma = url.indexOf(',');
  if (comma < 0 || !url.slice(0, comma).toLowerCase().endsWith(';base64')) return undefined;
  const payload = comma + 1;
  for (const end of [payload + PREFIX_CHARS, url.length]) {
    try {
      const size = imageSize(Buffer.from(url.slice(payload, end), 'base64'));
      if (size.width > 0 && size.height > 0) return { width: size.width, height: size.height };
    } catch {
      // Not enough of the image yet (or not an image): the whole payload next, then give up.
    }
    if (end >= url.length) break;
  }
  return undefined;
}

type ImagePart = { type?: string; image_url?: string | { url?: unknown; detail?: unknown } };

/**
 * Tokens of the image parts of an OpenAI message content. Images given inline (base64 data URLs)
 * are measured; remote http(s) URLs are never fetched on the request path, so they (and images
 * that cannot be read) count as one tile, 255 tokens (85 at low detail).
 */
export function imageTokens(content: unknown): number {
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const p of content as ImagePart[]) {
    if (p?.type !== 'image_url') continue;
    const image = typeof p.image_url === 'string' ? { url: p.image_url } : p.image_url;
    const detail = typeof image?.detail === 'string' ? image.detail : undefined;
    if (detail === 'low') {
      n += LOW_DETAIL_TOKENS;
      continue;
    }
    const size = typeof image?.url === 'string' ? dataUrlImageSize(image.url) : undefined;
    n += size ? tileTokens(size.width, size.height, detail) : UNKNOWN_SIZE_TOKENS;
  }
  return n;
}
