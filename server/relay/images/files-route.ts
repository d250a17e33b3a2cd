import type { FastifyInstance, FastifyRequest } from 'fastify';
import { refusal } from '../errors.ts';
import type { RelayRuntime } from '../runtime.ts';
import { imageKvKey, type StoredImage, validImageSignature } from './delivery.ts';

/*
 * `GET /v1/images/files/:file` (issue 44): a picture the gateway keeps for an hour (delivery.ts),
 * opened by the signed link it handed out (`?expires=&sig=`, for <img> and curl like OpenAI's own
 * links) or by a key of the user it was made for. Anyone else learns nothing: 404 as for a picture
 * that never existed; a forged or altered signature is 403, an expired link 404 (its picture is gone).
 */

const notFound = () => refusal(404, 'The image does not exist or has expired', '图片不存在或已过期', 'image_not_found');

async function allowed(rt: RelayRuntime, req: FastifyRequest, id: string, owner: number): Promise<boolean> {
  const q = req.query as { expires?: string; sig?: string };
  if (q.sig !== undefined || q.expires !== undefined) {
    const expires = Number(q.expires);
    if (!Number.isInteger(expires) || !validImageSignature(rt.deps.config.sessionSecret, id, expires, q.sig ?? ''))
      throw refusal(403, 'The image link signature is invalid', '图片链接签名无效', 'invalid_signature');
    if (expires * 1000 < Date.now()) throw notFound();
    return true;
  }
  // No signature: the caller's key (401 in OpenAI's shape without one), of the user the picture was made for.
  const principal = await rt.tokenAuth.authenticate(req);
  return principal.user.id === owner;
}

export function registerImageFiles(app: FastifyInstance, rt: RelayRuntime): void {
  app.get('/v1/images/files/:file', async (req, reply) => {
    const id = (req.params as { file: string }).file.replace(/\.[a-z]+$/i, '');
    const raw = /^[\w-]{10,64}$/.test(id) ? await rt.deps.kv.get(imageKvKey(id)) : undefined;
    const stored = raw ? (JSON.parse(raw) as StoredImage) : undefined;
    // The signature is checked before the store is: a forged link is 403 whether or not the picture exists.
    if (!(await allowed(rt, req, id, stored?.userId ?? -1)) || !stored) throw notFound();
    // Only a picture type is ever served from the gateway's origin (an upstream's word is not trusted for more).
    const mime = /^image\/(png|jpeg|webp|gif)$/.test(stored.mime) ? stored.mime : 'application/octet-stream';
    return reply
      .header('content-type', mime)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, max-age=3600')
      .send(Buffer.from(stored.b64, 'base64'));
  });
}
