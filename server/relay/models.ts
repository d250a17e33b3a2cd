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

/** Models this key may call: its model limits when set, else what the group's channels serve. */
function usableModels(rt: RelayRuntime, p: RelayPrincipal): ModelEntry[] {
  const served = rt.routing.models(p.group);
  const names = p.token?.modelLimits ? [...p.token.modelLimits] : served;
  return names.sort().map((id) => {
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
