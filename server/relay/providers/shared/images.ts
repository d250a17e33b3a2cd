import { request } from 'undici';
import { refusal, RelayError } from '../../errors.ts';
import { isBlockedAddress, publicOnlyAgent } from './safe-fetch.ts';

/** Remote images are fetched for providers that only take inline data; bigger ones are refused. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 15_000;

export interface InlineImage {
  mediaType: string;
  /** base64 without the data-URL prefix */
  data: string;
}

/** `data:image/png;base64,...` -> parts; undefined when the URL is not a base64 data URL. */
export function parseDataUrl(url: string): InlineImage | undefined {
  const m = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  if (!m) return undefined;
  return { mediaType: m[1] || 'image/png', data: m[2] };
}

/**
 * An OpenAI `image_url` as inline base64: data URLs are split, http(s) URLs are
 * fetched with a size cap (the body is read incrementally so a huge file is never
 * buffered whole). Failures are the client's (400), never retried.
 */
export async function inlineImage(url: string): Promise<InlineImage> {
  const parsed = parseDataUrl(url);
  if (parsed) return parsed;
  if (!/^https?:\/\//i.test(url)) throw refusal(400, 'Unsupported image URL', '不支持的图片地址', 'invalid_image_url');
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (isBlockedAddress(host) || /^localhost$/i.test(host))
    throw refusal(
      400,
      'Images cannot be downloaded from internal addresses',
      '不允许从内部地址下载图片',
      'invalid_image_url',
    );
  try {
    const res = await request(url, {
      method: 'GET',
      dispatcher: publicOnlyAgent,
      headersTimeout: FETCH_TIMEOUT_MS,
      bodyTimeout: FETCH_TIMEOUT_MS,
    });
    if (res.statusCode < 200 || res.statusCode >= 300) {
      await res.body.dump();
      throw refusal(
        400,
        `Image download failed: HTTP ${res.statusCode}`,
        `图片下载失败：HTTP ${res.statusCode}`,
        'invalid_image_url',
      );
    }
    const declared = Number(res.headers['content-length'] ?? 0);
    if (declared > MAX_IMAGE_BYTES) {
      await res.body.dump();
      throw tooLarge();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of res.body) {
      size += (c as Buffer).length;
      if (size > MAX_IMAGE_BYTES) {
        res.body.destroy();
        throw tooLarge();
      }
      chunks.push(c as Buffer);
    }
    const type = String(res.headers['content-type'] ?? 'image/png')
      .split(';')[0]
      .trim();
    return {
      mediaType: type.startsWith('image/') ? type : 'image/png',
      data: Buffer.concat(chunks).toString('base64'),
    };
  } catch (err) {
    if (err instanceof RelayError) throw err;
    throw refusal(
      400,
      `Image download failed: ${(err as Error).message}`,
      `图片下载失败：${(err as Error).message}`,
      'invalid_image_url',
    );
  }
}

const tooLarge = () =>
  refusal(
    400,
    `The image is larger than the ${MAX_IMAGE_BYTES / 1024 / 1024} MB limit`,
    `图片超过 ${MAX_IMAGE_BYTES / 1024 / 1024} MB 上限`,
    'image_too_large',
  );

/** Text of an OpenAI content (string or parts). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p: { type?: string; text?: unknown }) => (p?.type === 'text' && typeof p.text === 'string' ? p.text : ''))
    .join('');
}

/** Tool-call arguments as an object (providers take objects; OpenAI sends a JSON string). */
export function parseArgs(args: unknown): Record<string, unknown> {
  if (args && typeof args === 'object') return args as Record<string, unknown>;
  if (typeof args !== 'string' || args.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(args);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
  } catch {
    return { raw: args };
  }
}
