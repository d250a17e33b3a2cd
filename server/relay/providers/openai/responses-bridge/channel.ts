import type { ChannelConfig } from '../../../channel-config.ts';

/*
 * Which channels speak OpenAI's Responses API (docs/conversion.md § Responses). OpenAI (type 1)
 * and Azure OpenAI (type 3) do; an OpenAI-compatible channel does when its settings JSON says
 * `"responses_api": true` (or `"responses_only": true`). Every other channel is chat-only: a
 * Responses client reaches it through the canonical chat form.
 */

/** Channel types that serve `/v1/responses` themselves. */
const RESPONSES_TYPES = new Set([1, 3]);

/** Whether the channel takes a Responses body as it is (the Responses door relays natively to it). */
export const speaksResponses = (channel: ChannelConfig): boolean =>
  RESPONSES_TYPES.has(channel.type) ||
  channel.setting.responses_api === true ||
  channel.setting.responses_only === true;

/**
 * OpenAI models that answer only on the Responses API (chat completions refuses them): the codex
 * models, the -pro reasoning models, deep research and computer use. Matched on a channel that
 * speaks Responses; an aggregator serving the same names over chat is left alone.
 */
export const RESPONSES_ONLY_MODEL =
  /(^|\/)(o1-pro|o3-pro|o3-deep-research|o4-mini-deep-research|computer-use-preview|codex-mini|gpt-5(\.\d+)?-(pro|codex))(\b|[-_])/;

/**
 * Whether a chat request for this upstream model goes to `/responses` through the bridge: the
 * channel says `"responses_only": true`, or lists the model in `"responses_models": [...]`, or
 * speaks Responses and the model is one of the Responses-only ones above. Azure (type 3) builds
 * its deployment URLs apart and is not bridged.
 */
export function chatGoesToResponses(channel: ChannelConfig, upstreamModel: string): boolean {
  if (channel.type === 3) return false;
  const s = channel.setting;
  if (s.responses_only === true) return true;
  if (Array.isArray(s.responses_models) && s.responses_models.includes(upstreamModel)) return true;
  return speaksResponses(channel) && RESPONSES_ONLY_MODEL.test(upstreamModel);
}
