/*
 * THE list of deliberate refusals: the cells of the conformance matrix where the gateway answers a
 * 400 on purpose, because the upstream cannot do what the client asked and no honest emulation
 * exists. A cell counts as `refused` (not `fail`) only when the SDK got a 400 in its own dialect
 * whose message contains `messageIncludes`; each entry's `reason` is printed as a footnote on
 * docs/conformance.md. Anything not listed here that fails is a failure.
 */
import type { CaseId, ClientShapeId, DoorId, UpstreamId } from './matrix.ts';

export type DeliberateRefusal = {
  upstream: UpstreamId;
  /** Part of the message the client reads (Chinese, the relay's default: the SDKs send no Accept-Language). */
  messageIncludes: string;
  /** Why the gateway refuses instead of converting: shown on the page. */
  reason: string;
} & ({ door: DoorId; case: CaseId } | { shape: ClientShapeId });

/** Why n > 1 is refused on Anthropic (the same reason for every door that can ask for it). */
const ANTHROPIC_N =
  "Anthropic's Messages API has no `n`: one request gives one answer. Emulating it would take N parallel upstream calls, each billed, for a feature agent clients do not use, so it is left out: send N requests instead.";

/** Why a request that requires a built-in tool is refused where the body is converted. */
const REQUIRED_BUILT_IN =
  "The request requires a tool that runs on the door's own provider (OpenAI's web search, Anthropic's server-side web search): the upstream has no such tool and the gateway does not emulate one, so a forced call cannot be honoured. Declared without being required, the tool is left out instead and the answer names it (declared built-in tool left out).";

const requiredBuiltIn = (door: DoorId, upstream: UpstreamId): DeliberateRefusal => ({
  door,
  upstream,
  case: 'required-built-in',
  messageIncludes: 'tool_choice 要求使用',
  reason: REQUIRED_BUILT_IN,
});

export const DELIBERATE_REFUSALS: readonly DeliberateRefusal[] = [
  {
    door: 'openai-chat',
    upstream: 'anthropic',
    case: 'n',
    messageIncludes: 'Anthropic 每次请求只返回一个回答',
    reason: ANTHROPIC_N,
  },
  {
    door: 'gemini',
    upstream: 'anthropic',
    case: 'n',
    messageIncludes: 'Anthropic 每次请求只返回一个回答',
    reason: ANTHROPIC_N,
  },
  requiredBuiltIn('responses', 'openai-chat-only'),
  requiredBuiltIn('responses', 'anthropic'),
  requiredBuiltIn('responses', 'gemini'),
  requiredBuiltIn('anthropic', 'openai'),
  requiredBuiltIn('anthropic', 'openai-chat-only'),
  requiredBuiltIn('anthropic', 'gemini'),
];

export function refusalFor(door: DoorId, upstream: UpstreamId, c: CaseId): DeliberateRefusal | undefined {
  return DELIBERATE_REFUSALS.find((r) => 'door' in r && r.door === door && r.upstream === upstream && r.case === c);
}

export function shapeRefusalFor(shape: ClientShapeId, upstream: UpstreamId): DeliberateRefusal | undefined {
  return DELIBERATE_REFUSALS.find((r) => 'shape' in r && r.shape === shape && r.upstream === upstream);
}
