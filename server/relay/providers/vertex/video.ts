import { relayRefusal } from '../../errors.ts';
import type { VideoAdapter, VideoCall } from '../../tasks/video/types.ts';
import { bytesFile, googleJson, INLINE, veoBody, veoCapabilities, veoProgress } from '../gemini/veo.ts';
import { openVideoFile } from '../shared/video-upstream.ts';
import { parseVertexKey, vertexAccessToken } from './credentials.ts';
import { vertexUrl } from './urls.ts';

/*
 * Veo on Vertex AI (type 41): `POST .../publishers/google/models/{m}:predictLongRunning` answers an
 * operation (`projects/{p}/locations/{l}/publishers/google/models/{m}/operations/{uuid}`, the
 * upstream id), polled with `POST .../models/{m}:fetchPredictOperation {operationName}`. The
 * finished video comes back inline (`bytesBase64Encoded`, read again from the operation when the
 * content is asked for: a video is never stored in the database) or, when the operator passed a
 * `storageUri`, as a `gs://` object read through the Cloud Storage JSON API with the same token.
 * Credentials are the chat adapter's: a service account's cached OAuth token, or express mode's API key.
 */

async function authHeaders(call: VideoCall): Promise<Record<string, string>> {
  const key = parseVertexKey(call.key);
  if (key.kind === 'api_key') return { 'x-goog-api-key': key.apiKey };
  const t = await vertexAccessToken(key.account);
  if ('refusedStatus' in t)
    // The operator's key, not the caller's: a 502 naming the channel, as any refused upstream key.
    throw relayRefusal(502, 'relay.vertex_account_refused', 'upstream_error', { id: call.channel.id }, true);
  return { authorization: `Bearer ${t.token}`, 'x-goog-user-project': key.account.project_id };
}

/** `{host}/v1/` as vertexUrl builds it for this channel (a base URL set on the channel replaces Google's host). */
function apiRoot(call: VideoCall): string {
  const url = vertexUrl(call, parseVertexKey(call.key), call.upstreamModel, 'predictLongRunning', 'google');
  return url.slice(0, url.indexOf('/v1/') + 4);
}

/** The operation's own model resource, so a poll reaches the region the job was submitted to. */
function resourceOf(upstreamId: string): string {
  const at = upstreamId.indexOf('/operations/');
  if (at < 0) throw relayRefusal(502, 'relay.vertex_bad_operation', 'upstream_error');
  return upstreamId.slice(0, at);
}

async function fetchOperation(call: VideoCall, upstreamId: string): Promise<unknown> {
  const path = resourceOf(upstreamId).split('/').map(encodeURIComponent).join('/');
  return googleJson(call, `${apiRoot(call)}${path}:fetchPredictOperation`, 'POST', await authHeaders(call), {
    operationName: upstreamId,
  });
}

/** `gs://bucket/a/b.mp4` -> the Cloud Storage JSON API's media URL (on the channel's base URL when set). */
function storageUrl(call: VideoCall, gcsUri: string): string {
  const m = /^gs:\/\/([^/]+)\/(.+)$/.exec(gcsUri);
  if (!m) throw relayRefusal(502, 'relay.veo_bad_storage', 'upstream_error', {}, true);
  const base =
    call.channel.baseUrl.replace(/\/v1(beta1)?$/, '').replace(/\/+$/, '') || 'https://storage.googleapis.com';
  return `${base}/storage/v1/b/${encodeURIComponent(m[1])}/o/${encodeURIComponent(m[2])}?alt=media`;
}

export const vertexVideoAdapter: VideoAdapter = {
  capabilities: veoCapabilities,

  async submit(call, req) {
    const body = await veoBody(call.upstreamModel, req, true);
    const url = vertexUrl(call, parseVertexKey(call.key), call.upstreamModel, 'predictLongRunning', 'google');
    const op = (await googleJson(call, url, 'POST', await authHeaders(call), body)) as {
      name?: unknown;
    } | null;
    if (typeof op?.name !== 'string' || !op.name.includes('/operations/'))
      throw relayRefusal(502, 'relay.video_no_operation', 'upstream_error', { id: call.channel.id }, true);
    return { upstreamId: op.name, progress: veoProgress(op, true) };
  },

  async poll(call, upstreamId) {
    return veoProgress(await fetchOperation(call, upstreamId), true);
  },

  async content(call, upstreamId, stored, variant, range) {
    const where = stored?.video;
    if (variant !== 'video' || !where) throw relayRefusal(404, 'relay.video_no_variant', 'not_found', { variant });
    if (where !== INLINE) return openVideoFile(call, storageUrl(call, where), range, await authHeaders(call));
    const op = (await fetchOperation(call, upstreamId)) as {
      response?: { videos?: { bytesBase64Encoded?: string; mimeType?: string }[] };
    };
    const v = op.response?.videos?.[0];
    if (!v?.bytesBase64Encoded) throw relayRefusal(404, 'relay.video_gone_upstream', 'not_found');
    return bytesFile(Buffer.from(v.bytesBase64Encoded, 'base64'), v.mimeType ?? 'video/mp4', range);
  },
};
