import { relayRefusal } from '../../errors.ts';
import type { VideoAdapter, VideoCall } from '../../tasks/video/types.ts';
import { openVideoFile } from '../shared/video-upstream.ts';
import { googleJson, veoBody, veoCapabilities, veoProgress } from './veo.ts';

/*
 * Veo on the Gemini API (type 24): `POST {base}/v1beta/models/{m}:predictLongRunning` answers an
 * operation whose name (`models/{m}/operations/{id}`) is the upstream id; `GET {base}/v1beta/{name}`
 * polls it; the finished video's uri downloads with the channel key. The key travels in
 * `x-goog-api-key`, never in a URL, so no log line or error can carry it.
 */

/** `{base}/v1beta` (a base already ending in a version is taken as it is, as for chat). */
function apiRoot(call: VideoCall): string {
  const base = call.channel.baseUrl.replace(/\/+$/, '');
  return /\/v\d+(beta|alpha)?$/.test(base) ? base : `${base}/v1beta`;
}

const auth = (call: VideoCall) => ({ 'x-goog-api-key': call.key });

export const geminiVideoAdapter: VideoAdapter = {
  capabilities: veoCapabilities,

  async submit(call, req) {
    const body = await veoBody(call.upstreamModel, req, false);
    const model = encodeURIComponent(call.upstreamModel);
    const op = (await googleJson(
      call,
      `${apiRoot(call)}/models/${model}:predictLongRunning`,
      'POST',
      auth(call),
      body,
    )) as { name?: unknown } | null;
    if (typeof op?.name !== 'string' || !op.name)
      throw relayRefusal(502, 'relay.video_no_operation', 'upstream_error', { id: call.channel.id }, true);
    return { upstreamId: op.name, progress: veoProgress(op, false) };
  },

  async poll(call, upstreamId) {
    const path = upstreamId.split('/').map(encodeURIComponent).join('/');
    return veoProgress(await googleJson(call, `${apiRoot(call)}/${path}`, 'GET', auth(call)), false);
  },

  async content(call, _upstreamId, stored, variant, range) {
    const uri = stored?.video;
    if (variant !== 'video' || !uri || !/^https?:\/\//.test(uri))
      throw relayRefusal(404, 'relay.video_no_variant', 'not_found', { variant });
    return openVideoFile(call, uri, range, auth(call));
  },
};
