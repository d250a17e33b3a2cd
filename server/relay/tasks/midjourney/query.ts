import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { mjByMjId, mjByUserAndIds } from '../../../domains/tasks/tasks.repo.ts';
import { refusal } from '../../errors.ts';
import type { RelayPrincipal } from '../../principal.ts';
import type { RelayRuntime } from '../../runtime.ts';
import { sendUpstream } from '../../upstream.ts';
import { callTaskUpstream } from '../task-upstream.ts';
import { MJ_CHANNEL_TYPES } from './actions.ts';
import { mjTaskDto } from './views.ts';

/*
 * Reads answered from the gateway's own copy (kept fresh by the poller), as
 * new-api does: a client never learns which channel or upstream id served it.
 */

const forwardBase = (rt: RelayRuntime) => rt.deps.services.tasks.forwardBase();

export async function fetchMj(rt: RelayRuntime, p: RelayPrincipal, mjId: string) {
  const row = await mjByMjId(rt.deps.db, mjId);
  if (!row || Number(row.user_id) !== p.user.id) throw refusal(404, 'Task not found', '任务不存在', 'task_not_found');
  return mjTaskDto(row, forwardBase(rt));
}

export async function listMjByIds(rt: RelayRuntime, p: RelayPrincipal, ids: string[]) {
  const rows = await mjByUserAndIds(rt.deps.db, p.user.id, ids);
  const fb = forwardBase(rt);
  return rows.map((r) => mjTaskDto(r, fb));
}

/** The image seed is only known upstream: asked on the channel that drew the task. */
export async function imageSeed(rt: RelayRuntime, p: RelayPrincipal, mjId: string, mode: string | null) {
  const row = await mjByMjId(rt.deps.db, mjId);
  if (!row || Number(row.user_id) !== p.user.id) throw refusal(404, 'Task not found', '任务不存在', 'task_not_found');
  const channel = rt.routing.channel(Number(row.channel_id));
  if (!channel || !(MJ_CHANNEL_TYPES as readonly number[]).includes(channel.type))
    throw refusal(
      503,
      `Channel #${row.channel_id} is unavailable`,
      `渠道 #${row.channel_id} 不可用`,
      'channel_unavailable',
    );
  const prefix = mode ? `/mj-${mode}` : '';
  const a = await callTaskUpstream(channel, 'mj', 'GET', `${prefix}/mj/task/${encodeURIComponent(mjId)}/image-seed`);
  return { status: a.status, body: a.json };
}

const IMAGE_TIMEOUT_MS = 60_000;

/**
 * Streams a task's picture from where the upstream stored it (MjForwardUrlEnabled
 * links point here). Public like new-api's, since <img> tags send no key; the
 * unguessable task id is the capability.
 */
export async function proxyImage(rt: RelayRuntime, mjId: string, reply: FastifyReply) {
  const row = await mjByMjId(rt.deps.db, mjId);
  if (!row || !row.image_url) throw refusal(404, 'Image not found', '图片不存在', 'image_not_found');
  let res;
  try {
    res = await sendUpstream(
      { url: row.image_url, method: 'GET', headers: { accept: 'image/*' } },
      AbortSignal.timeout(IMAGE_TIMEOUT_MS),
    );
  } catch {
    throw refusal(502, 'Fetching the image failed', '获取图片失败', 'image_fetch_failed');
  }
  if (res.statusCode >= 400) {
    await res.body.dump();
    throw refusal(
      502,
      `Fetching the image failed (HTTP ${res.statusCode})`,
      `获取图片失败 (HTTP ${res.statusCode})`,
      'image_fetch_failed',
    );
  }
  const type = res.headers['content-type'];
  reply.header('content-type', typeof type === 'string' ? type : 'image/png');
  reply.header('cache-control', 'public, max-age=86400');
  return reply.send(Readable.from(res.body));
}
