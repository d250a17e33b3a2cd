import type { CanonicalMessage, CanonicalRequest } from '../../canonical/types.ts';
import type { AttemptContext } from '../types.ts';
import { renderMessages, type MessagePolicy } from './messages.ts';
import { fitParams, type ParamPolicy } from './params.ts';
import { isOpenAIModelName, reasoningModelOf } from './reasoning-models.ts';

/*
 * A chat body in the internal form rendered for an OpenAI-compatible upstream. The common case,
 * an OpenAI client's plain body, costs one scan of the messages and comes back as the same
 * object: nothing is cloned or re-walked unless something must change.
 */

const OPENAI = 1;
const AZURE = 3;
const OPENROUTER = 20;
const ZHIPU_V4 = 26;
const MISTRAL = 42;
const DEEPSEEK = 43;

export type UpstreamPolicy = MessagePolicy & ParamPolicy;

/**
 * What this attempt's upstream takes. "Strict" is OpenAI itself: Azure, or an OpenAI channel that
 * calls api.openai.com or an OpenAI model (an OpenAI-type channel pointed at another vendor
 * serving its own models is treated as that vendor: its extras pass).
 */
export function policyOf(ctx: AttemptContext): UpstreamPolicy {
  const type = ctx.channel.type;
  const strict =
    type === AZURE ||
    (type === OPENAI && (ctx.channel.baseUrl.includes('api.openai.com') || isOpenAIModelName(ctx.upstreamModel)));
  const reasoningModel = reasoningModelOf(ctx.upstreamModel);
  return {
    strict,
    files: type === OPENAI || type === AZURE || type === OPENROUTER,
    converted: ctx.clientProtocol !== undefined,
    noSystem: reasoningModel?.noSystem ?? false,
    nativeReasoning: type === OPENROUTER,
    thinkingSwitch: type === DEEPSEEK || type === ZHIPU_V4,
    // Mistral refuses fields it does not know; it documents prompt_cache_key, not the retention.
    noCacheRetention: type === MISTRAL,
    reasoningModel,
  };
}

/** The chat body for the upstream; `body` itself when nothing needs rendering. */
export function renderChatBody(ctx: AttemptContext, body: Record<string, unknown>): Record<string, unknown> {
  const p = policyOf(ctx);
  const req = body as CanonicalRequest;
  const messages = Array.isArray(req.messages) ? renderMessages(req.messages, p) : req.messages;
  const fitted = fitParams(req, p);
  if (messages === req.messages) return fitted ?? body;
  return { ...(fitted ?? body), messages: messages as CanonicalMessage[] };
}
