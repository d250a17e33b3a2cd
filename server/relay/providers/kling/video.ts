import { type RelayError, relayRefusal } from '../../errors.ts';
import type {
  VideoAdapter,
  VideoCall,
  VideoCapabilities,
  VideoFile,
  VideoProgress,
  VideoState,
} from '../../tasks/video/types.ts';
import { openVideoFile, videoJson } from '../shared/video-upstream.ts';
import { klingToken } from './token.ts';
import {
  KLING_RATIOS,
  KLING_RESOLUTIONS,
  KLING_SECONDS,
  KLING_SIZES,
  type KlingKind,
  type KlingMode,
  klingSubmitBody,
} from './video-request.ts';

/*
 * Kling's video tasks (channel type 50): submit to /v1/videos/{text2video|image2video}, poll
 * /v1/videos/{kind}/{task_id}, fetch the finished file from the CDN link Kling reports. Kling answers
 * `{code, message, request_id, data}` with code 0 on success. The task's kind and mode are kept in the
 * upstream id (`kind:mode:task_id`, never shown to a client): polling needs the kind, and settlement
 * the resolution, which Kling's answer does not repeat.
 */

const capabilities: VideoCapabilities = {
  seconds: KLING_SECONDS,
  sizes: Object.keys(KLING_SIZES),
  resolutions: Object.values(KLING_RESOLUTIONS),
  aspectRatios: KLING_RATIOS,
  firstFrame: true,
  lastFrame: true,
  remix: false,
  variants: ['video'],
};

interface KlingAnswer {
  code?: number;
  message?: string;
  data?: {
    task_id?: string;
    task_status?: string;
    task_status_msg?: string;
    task_result?: { videos?: { url?: string; duration?: string }[] };
  };
}

/** Kling's refusal as the relay's error: its own 4xx for the request, the channel's fault otherwise. */
function klingError(call: VideoCall, status: number, a: KlingAnswer): RelayError {
  // Kling's own words go in as it said them, in either language.
  const p = { id: call.channel.id, said: a.message ?? '-', code: a.code ?? '-', status };
  if (status === 401 || (a.code !== undefined && a.code >= 1000 && a.code < 1100))
    return relayRefusal(502, 'relay.kling_key_refused', 'upstream_auth_failed', p, true);
  if (status === 429) return relayRefusal(429, 'relay.kling_busy', 'upstream_rate_limited', p, true);
  if (status === 404) return relayRefusal(404, 'relay.kling_no_task', 'upstream_not_found', p, true);
  if (status === 400) return relayRefusal(400, 'relay.kling_refused', 'upstream_refused', p);
  return relayRefusal(502, 'relay.kling_failed', 'upstream_error', p, true);
}

async function callKling(call: VideoCall, method: 'GET' | 'POST', path: string, body?: unknown) {
  const auth = { authorization: `Bearer ${await klingToken(call.key)}` };
  const { status, json } = await videoJson(call, method, path, auth, body);
  const a = json as KlingAnswer;
  if (status >= 300 || a.code !== 0) throw klingError(call, status, a);
  return a;
}

const STATES: Record<string, { state: VideoState; progress: number }> = {
  submitted: { state: 'queued', progress: 0 },
  // Kling reports no percentage: halfway is honest enough for a bar.
  processing: { state: 'in_progress', progress: 50 },
  succeed: { state: 'completed', progress: 100 },
  failed: { state: 'failed', progress: 0 },
};

function progressOf(call: VideoCall, a: KlingAnswer, mode: KlingMode): VideoProgress {
  const d = a.data ?? {};
  const known = STATES[d.task_status ?? ''];
  if (!known)
    throw relayRefusal(
      502,
      'relay.kling_unknown_status',
      'bad_response',
      { status: d.task_status ?? '', id: call.channel.id },
      true,
    );
  const p: VideoProgress = { ...known };
  if (known.state === 'failed') p.failReason = d.task_status_msg || 'Kling reported the task failed';
  if (known.state === 'completed') {
    const v = d.task_result?.videos?.[0];
    const seconds = Math.round(Number(v?.duration));
    if (seconds > 0) p.seconds = seconds;
    p.resolution = KLING_RESOLUTIONS[mode];
    if (v?.url) p.content = { video: v.url };
  }
  return p;
}

function splitId(upstreamId: string): { kind: KlingKind; mode: KlingMode; taskId: string } {
  const [kind, mode, ...rest] = upstreamId.split(':');
  return { kind: kind as KlingKind, mode: mode as KlingMode, taskId: rest.join(':') };
}

export const klingVideoAdapter: VideoAdapter = {
  capabilities: () => capabilities,

  async submit(call, req) {
    const { kind, mode, body } = klingSubmitBody(req, call.upstreamModel);
    const a = await callKling(call, 'POST', `/v1/videos/${kind}`, body);
    const taskId = a.data?.task_id;
    if (!taskId) throw relayRefusal(502, 'relay.kling_no_task_id', 'bad_response', { id: call.channel.id }, true);
    return { upstreamId: `${kind}:${mode}:${taskId}`, progress: progressOf(call, a, mode) };
  },

  async poll(call, upstreamId) {
    const { kind, mode, taskId } = splitId(upstreamId);
    const a = await callKling(call, 'GET', `/v1/videos/${kind}/${encodeURIComponent(taskId)}`);
    return progressOf(call, a, mode);
  },

  async content(call, _upstreamId, stored, variant, range): Promise<VideoFile> {
    const url = variant === 'video' ? stored?.video : undefined;
    if (!url) throw relayRefusal(404, 'relay.video_no_variant', 'video_variant_not_found', { variant });
    // Kling's links are public CDN URLs: no key goes with them.
    return openVideoFile(call, url, range);
  },
};
