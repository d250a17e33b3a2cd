import type { AppDeps } from '../../context.ts';
import type { RelayCall } from '../prepare.ts';
import { affinityKey, openAffinity, type SessionAffinity } from './pins.ts';
import { type SessionHint, sessionHintOf } from './session-id.ts';

/**
 * The call's session (pins.ts), or undefined when affinity is off (channel_affinity_setting.enabled)
 * or the call generates nothing a prompt cache serves (embeddings, images, audio). Read once per call:
 * a header or body field, or else one hash of the prompt's stable prefix.
 */
export function sessionOfCall(deps: AppDeps, call: RelayCall): SessionHint | undefined {
  if (!call.generates || !deps.services.options.get('channel_affinity_setting.enabled')) return undefined;
  const { principal } = call;
  // The fallback is scoped to the token (the playground has none: its user), explicit ids to the user (the key).
  const tokenScope = principal.token ? `t${principal.token.id}` : `u${principal.user.id}`;
  return sessionHintOf(call.req.headers, call.req.body, call.body, tokenScope);
}

/** The session's pin for one real model: read now, chosen on the first attempt, moved by the one that answers. */
export function affinityFor(
  deps: AppDeps,
  call: RelayCall,
  session: SessionHint | undefined,
  model: string,
): SessionAffinity | undefined {
  if (!session) return undefined;
  const key = affinityKey(call.principal.user.id, session, call.principal.group, model);
  return openAffinity(deps.kv, deps.services.options.get('channel_affinity_setting.default_ttl_seconds'), key);
}
