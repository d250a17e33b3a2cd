import type { RelayCancel } from '../../cancel.ts';
import { refusal } from '../../errors.ts';
import { sendUpstream, type UpstreamResponse } from '../../upstream.ts';
import { unparsableUpstreamJson } from '../shared/error-body.ts';
import { parseDataUrl } from '../shared/images.ts';
import type { AttemptContext, UpstreamRequest } from '../types.ts';
import type { DifyFile } from './request.ts';

/*
 * Dify takes a picture either by URL (`remote_url`) or as a file uploaded first to `/v1/files/upload`
 * (multipart: `file` and the same `user` as the chat) and named by its id (`local_file`). A data URL
 * has no URL Dify could fetch, so it is uploaded here, once per attempt, with the app's key.
 */

/** Uploads one data-URL picture; the upload's answer when Dify refused it (mapError reads it). */
async function upload(
  ctx: AttemptContext,
  dataUrl: string,
  user: string,
  signal: AbortSignal | RelayCancel,
): Promise<{ id: string } | { refused: UpstreamResponse }> {
  const image = parseDataUrl(dataUrl);
  if (!image) throw refusal(400, 'Unsupported image URL', '不支持的图片地址', 'invalid_image_url');
  const form = new FormData();
  form.set('user', user);
  const ext = image.mediaType.replace(/^image\//, '') || 'png';
  form.set('file', new Blob([Buffer.from(image.data, 'base64')], { type: image.mediaType }), `image.${ext}`);
  const encoded = new Response(form);
  const res = await sendUpstream(
    {
      url: `${ctx.channel.baseUrl}/v1/files/upload`,
      method: 'POST',
      headers: {
        authorization: `Bearer ${ctx.key}`,
        'content-type': encoded.headers.get('content-type') ?? 'multipart/form-data',
      },
      body: Buffer.from(await encoded.arrayBuffer()),
    },
    signal,
  );
  if (res.statusCode < 200 || res.statusCode >= 300) return { refused: res };
  let id: unknown;
  try {
    id = (JSON.parse(await res.body.text()) as { id?: unknown }).id;
  } catch {
    id = undefined;
  }
  if (typeof id !== 'string') throw unparsableUpstreamJson();
  return { id };
}

/**
 * The chat request with its data-URL pictures uploaded and replaced by their file ids; or the
 * refused upload's answer, which then stands for the attempt (a dead key shows there first).
 */
export async function uploadInlineImages(
  ctx: AttemptContext,
  req: UpstreamRequest,
  signal: AbortSignal | RelayCancel,
): Promise<UpstreamRequest | UpstreamResponse> {
  if (typeof req.body !== 'string' || !req.body.includes('"local_file"')) return req;
  const body = JSON.parse(req.body) as { user?: string; files?: DifyFile[] };
  const files: DifyFile[] = [];
  for (const f of body.files ?? []) {
    if (f.transfer_method !== 'local_file' || !f.url) {
      files.push(f);
      continue;
    }
    const done = await upload(ctx, f.url, body.user ?? '', signal);
    if ('refused' in done) return done.refused;
    files.push({ type: f.type, transfer_method: 'local_file', upload_file_id: done.id });
  }
  return { ...req, body: JSON.stringify({ ...body, files }) };
}
