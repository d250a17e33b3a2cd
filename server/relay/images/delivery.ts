import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { siteOrigin } from '../../site-origin.ts';
import type { AttemptSuccess } from '../attempts.ts';
import { RelayError } from '../errors.ts';
import type { RelayCall } from '../prepare.ts';
import type { UpstreamRequest } from '../providers/types.ts';
import type { RelayRuntime } from '../runtime.ts';
import { sendUpstream } from '../upstream.ts';
import type { ImageDatum, ImagesAnswer } from './image-answer.ts';
import { sniffMime } from './image-request.ts';

/*
 * Where the pictures go (issue 44). The canonical answer (image-answer.ts) holds base64 pictures or
 * URLs, some marked `_private` (they need the upstream's key or would show its host). Delivery gives
 * the client what it asked (`response_format`): base64 wanted and a URL given -> downloaded here; a
 * URL wanted and base64 given, or any private URL -> the picture is kept in the relay's KV for an
 * hour and linked as `/v1/images/files/<id>` (files-route.ts), a link signed like OpenAI's own
 * (it works in <img> and curl) that the caller's key opens too. Public URLs pass through.
 */

/** How long a gateway image link (and the picture behind it) lives: OpenAI's own links last an hour. */
export const IMAGE_LINK_TTL_MS = 60 * 60 * 1000;
/** The largest picture the gateway downloads or keeps (a 4K PNG is ~25 MB; upstreams answer less). */
export const MAX_IMAGE_BYTES = 32 * 1024 * 1024;

const KV_PREFIX = 'image-file:';

/**
 * What one process keeps in the KV within an hour (the store holds the pictures in memory unless it is
 * Redis): past it, pictures are answered as base64 rather than kept, so a burst of large pictures
 * cannot grow the gateway's memory without bound.
 */
export const IMAGE_STORE_BYTES = 512 * 1024 * 1024;
const kept: { until: number; bytes: number }[] = [];
let keptBytes = 0;

/** Counts a picture against the hour's budget; false (nothing counted) when it would pass it. */
function roomFor(bytes: number): boolean {
  const now = Date.now();
  while (kept.length > 0 && kept[0].until <= now) keptBytes -= kept.shift()!.bytes;
  if (keptBytes + bytes > IMAGE_STORE_BYTES) return false;
  kept.push({ until: now + IMAGE_LINK_TTL_MS, bytes });
  keptBytes += bytes;
  return true;
}

/** A kept picture: its owner (the paying user), type and bytes. */
export interface StoredImage {
  userId: number;
  mime: string;
  b64: string;
}

const EXT: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/webp': 'webp',
  'image/gif': 'gif',
};

/** The link key: derived from the session secret, so links survive restarts and die with a changed secret. */
const linkKey = (secret: string) => createHmac('sha256', secret).update('image file link').digest();

export const signImageLink = (secret: string, id: string, expires: number) =>
  createHmac('sha256', linkKey(secret)).update(`${id}.${expires}`).digest('base64url');

/** Whether `sig` is the link's signature (constant time). */
export function validImageSignature(secret: string, id: string, expires: number, sig: string): boolean {
  const want = Buffer.from(signImageLink(secret, id, expires));
  const got = Buffer.from(sig);
  return want.length === got.length && timingSafeEqual(want, got);
}

export const imageKvKey = (id: string) => `${KV_PREFIX}${id}`;

/** Keeps a picture for its owner and answers the signed link to it; undefined when the hour's budget is spent. */
async function storeImage(rt: RelayRuntime, call: RelayCall, mime: string, b64: string): Promise<string | undefined> {
  if (!roomFor(b64.length)) return undefined;
  const id = randomBytes(18).toString('base64url');
  const stored: StoredImage = { userId: call.principal.user.id, mime, b64 };
  await rt.deps.kv.set(imageKvKey(id), JSON.stringify(stored), IMAGE_LINK_TTL_MS);
  const expires = Math.floor((Date.now() + IMAGE_LINK_TTL_MS) / 1000);
  const origin = siteOrigin(rt.deps.services.options.get('ServerAddress'), call.req);
  const sig = signImageLink(rt.deps.config.sessionSecret, id, expires);
  return `${origin}/v1/images/files/${id}.${EXT[mime] ?? 'png'}?expires=${expires}&sig=${sig}`;
}

/** A picture the upstream answered with as a URL, fetched through the relay's upstream pool, size-capped. */
async function download(call: RelayCall, ok: AttemptSuccess, url: string, own: boolean) {
  const req: UpstreamRequest =
    own && ok.adapter.imageFileRequest ? ok.adapter.imageFileRequest(ok.ctx, url) : { url, method: 'GET', headers: {} };
  const failed = () =>
    new RelayError(
      502,
      'The upstream picture could not be downloaded',
      'image_download_failed',
      true,
      '上游图片下载失败',
    );
  let res;
  try {
    res = await sendUpstream(req, call.abort, 60_000);
  } catch {
    throw failed();
  }
  if (res.statusCode < 200 || res.statusCode >= 300) {
    await res.body.dump().catch(() => undefined);
    throw failed();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += (chunk as Buffer).length;
    if (size > MAX_IMAGE_BYTES) {
      res.body.destroy();
      throw failed();
    }
    chunks.push(chunk as Buffer);
  }
  const data = Buffer.concat(chunks);
  const type = String(res.headers['content-type'] ?? '')
    .split(';')[0]
    .trim();
  return { b64: data.toString('base64'), mime: type.startsWith('image/') ? type : sniffMime(data) };
}

const mimeOf = (d: ImageDatum) => d._mime ?? sniffMime(Buffer.from((d.b64_json ?? '').slice(0, 24), 'base64'));

/**
 * The canonical answer as the client asked it (`call.body.response_format`). Items keep `_mime` for a
 * door that builds parts of them (the Gemini door); `clientJson` strips every mark for OpenAI clients.
 */
export async function deliverImages(
  rt: RelayRuntime,
  call: RelayCall,
  ok: AttemptSuccess,
  answer: ImagesAnswer,
): Promise<ImagesAnswer> {
  const want = call.body.response_format;
  const data = await Promise.all(
    answer.data.map(async (d): Promise<ImageDatum> => {
      const item: ImageDatum = d.revised_prompt ? { revised_prompt: d.revised_prompt } : {};
      if (d.url !== undefined && d.b64_json === undefined) {
        if (want === 'b64_json') {
          const got = await download(call, ok, d.url, d._private === true);
          return { b64_json: got.b64, _mime: got.mime, ...item };
        }
        if (!d._private) return { url: d.url, ...item };
        const got = await download(call, ok, d.url, true);
        const link = await storeImage(rt, call, got.mime, got.b64);
        return link ? { url: link, _mime: got.mime, ...item } : { b64_json: got.b64, _mime: got.mime, ...item };
      }
      if (d.b64_json === undefined) return item;
      const mime = mimeOf(d);
      const link = want === 'url' ? await storeImage(rt, call, mime, d.b64_json) : undefined;
      if (link) return { url: link, _mime: mime, ...item };
      return { b64_json: d.b64_json, _mime: mime, ...item };
    }),
  );
  return { ...answer, data };
}

/** The answer for an OpenAI client: the delivery marks taken out. */
export function clientJson(answer: ImagesAnswer): string {
  const data = answer.data.map((d) => {
    const item: ImageDatum = { ...d };
    delete item._private;
    delete item._mime;
    return item;
  });
  return JSON.stringify({ ...answer, data });
}

/** Pictures in an answer: the items with bytes or a link. */
export const pictureCount = (answer: ImagesAnswer) =>
  answer.data.filter((d) => typeof d.b64_json === 'string' || typeof d.url === 'string').length;
