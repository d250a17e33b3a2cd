import { refusal } from './errors.ts';
import type { RelayPrincipal } from './principal.ts';
import type { Candidate } from './routing-cache.ts';
import type { RelayRuntime } from './runtime.ts';

/* Which real models and channels a call may use: read from the routing cache, never the database. */

/**
 * Global model mapping (/api/model_mapping): a virtual name stands for real models in
 * priority order; those this group can reach are tried in that order (the one that serves
 * is billed). Any other name is itself.
 */
export function modelsToTry(rt: RelayRuntime, p: RelayPrincipal, requested: string): string[] {
  const real = rt.deps.services.modelMapping.resolveVirtualModel(requested);
  if (!real || p.pinnedChannelId !== null) return [requested];
  const reachable = real.filter((m) => rt.routing.candidates(p.group, m).length > 0);
  return reachable.length > 0 ? reachable : [real[0] ?? requested];
}

/**
 * relay.md §8: `o3-mini-high` means `o3-mini` with reasoning_effort "high" — unless a channel
 * serves the suffixed name itself. The client's own reasoning_effort wins.
 */
export function applyReasoningSuffix(
  rt: RelayRuntime,
  p: RelayPrincipal,
  body: Record<string, unknown>,
  model: string,
) {
  const m = /^(.+)-(high|medium|low)$/.exec(model);
  if (!m || rt.routing.candidates(p.group, model).length > 0) return model;
  if (p.pinnedChannelId === null && rt.routing.candidates(p.group, m[1]).length === 0) return model;
  if (body.reasoning_effort === undefined) body.reasoning_effort = m[2];
  return m[1];
}

/**
 * No enabled channel of this group serves the model (relay.md §3), told apart for clients (issue 28):
 * when no channel of the group lists the model at all it does not exist here, a 404 `model_not_found`
 * that SDKs do not retry; when channels list it but every one is disabled (by an admin or after
 * failures), it is an outage, a 503 that says so.
 */
export const noChannelFor = (rt: RelayRuntime, group: string, model: string) =>
  rt.routing.listed(group, model)
    ? refusal(
        503,
        `No channel is available for model ${model} in group ${group}: every channel serving it is disabled`,
        `当前分组 ${group} 下对于模型 ${model} 无可用渠道：提供该模型的渠道均已被禁用`,
        'no_available_channel',
      )
    : refusal(
        404,
        `The model ${model} does not exist or is not served in group ${group}`,
        `模型 ${model} 不存在，或当前分组 ${group} 下没有渠道提供该模型`,
        'model_not_found',
      );

export function candidatesFor(rt: RelayRuntime, p: RelayPrincipal, model: string): readonly Candidate[] {
  if (p.pinnedChannelId !== null) {
    const channel = rt.routing.channel(p.pinnedChannelId);
    if (!channel)
      throw refusal(
        503,
        `Channel #${p.pinnedChannelId} does not exist or is disabled`,
        `渠道 #${p.pinnedChannelId} 不存在或已被禁用`,
        'channel_unavailable',
      );
    return [{ channel, priority: 0, weight: 0 }];
  }
  const list = rt.routing.candidates(p.group, model);
  if (list.length === 0) throw noChannelFor(rt, p.group, model);
  return list;
}
