import { channelTypeInfo } from '../../shared/channel-types.ts';
import { refusal } from './errors.ts';
import type { RelayPrincipal } from './principal.ts';
import type { RelayRuntime } from './runtime.ts';

export interface ModelEntry {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}

/**
 * Models this key can call: those some enabled channel of its group serves (the routing cache's
 * enabled abilities, no database read), narrowed to its model limits when it has them, and priced as
 * a call would be (the billing service's memoised price lookup: a model price or ratio, the fallback
 * price, self-use mode or the user's "accept models without a price"). A limit no channel serves is
 * not offered (issue 28), nor a model the relay would refuse for want of a price (issue 39): the list
 * named models every call to would fail.
 */
function usableModels(rt: RelayRuntime, p: RelayPrincipal): ModelEntry[] {
  const served = rt.routing.models(p.group);
  const limits = p.token?.modelLimits;
  const billing = rt.deps.services.billing;
  const callable = (m: string) =>
    (!limits || limits.has(m)) && billing.resolvePrice(m, p.group, p.user.acceptUnsetModels).ok;
  return served
    .filter(callable)
    .sort()
    .map((id) => {
      const channel = rt.routing.candidates(p.group, id)[0]?.channel;
      const owner = channel ? (channelTypeInfo(channel.type)?.name ?? 'custom') : 'custom';
      return { id, object: 'model', created: 1626777600, owned_by: owner.toLowerCase().replace(/\s+/g, '-') };
    });
}

/** GET /v1/models in OpenAI's list shape. */
export const listModels = (rt: RelayRuntime, p: RelayPrincipal) => ({ object: 'list', data: usableModels(rt, p) });

/** GET /v1/models/{model}; 404 in OpenAI's shape when the key may not use it. */
export function oneModel(rt: RelayRuntime, p: RelayPrincipal, model: string): ModelEntry {
  const found = usableModels(rt, p).find((m) => m.id === model);
  if (!found) throw refusal(404, `The model ${model} does not exist`, `模型 ${model} 不存在`, 'model_not_found');
  return found;
}
