import { budgetOf, effortOf, reasoningOf } from '../../canonical/reasoning.ts';
import { sendUpstream } from '../../upstream.ts';
import { openAIAdapter } from '../openai/adapter.ts';
import { bearerGet, type ChannelQuery } from '../shared/channel-query.ts';
import type { AttemptContext, ProviderAdapter, RelayMode, UpstreamRequest } from '../types.ts';
import { mapAliError } from './errors.ts';
import { aliRoot, buildImageTask, sendImageTask } from './images.ts';
import { buildRerankRequest, rerankAnswer } from './rerank.ts';
import {
  asGatheredStream,
  gatheredCompletion,
  isGathered,
  isGatheredText,
  sendGathered,
  streamOnly,
  thinksAlways,
  thinksByDefault,
} from './thinking-stream.ts';

/*
 * Alibaba Cloud DashScope / Model Studio (type 17). Chat and embeddings go to its OpenAI-compatible
 * mode (`{base}/compatible-mode/v1/...`, bearer key) through the OpenAI adapter's own request,
 * answer and stream code; Qwen's reasoning switch is `enable_thinking` (+ `thinking_budget`), and
 * reasoning comes back as `reasoning_content`, which the OpenAI code already reads. Images and
 * rerank, which compatible mode lacks, use the native API (images.ts, rerank.ts).
 */

type Json = Record<string, unknown>;

const compatiblePath: Partial<Record<RelayMode, string>> = {
  chat: 'chat/completions',
  completions: 'completions',
  embeddings: 'embeddings',
};

const compatibleUrl = (ctx: AttemptContext) => `${aliRoot(ctx)}/compatible-mode/v1/${compatiblePath[ctx.mode]}`;

/**
 * The canonical reasoning request in Qwen's terms: `enable_thinking` on or off, the effort's budget
 * as `thinking_budget`; OpenAI's `reasoning_effort` is not DashScope's. A client's own
 * `enable_thinking` (an OpenAI client speaking Qwen) is kept as sent.
 */
function withQwenThinking(ctx: AttemptContext, original: Json, out: Json): Json {
  const r = reasoningOf(original);
  delete out.reasoning_effort;
  delete out.reasoning;
  if (original.enable_thinking !== undefined) return out;
  // Not asked to reason, not streamed: a hybrid Qwen3 would refuse to think without a stream (thinking-stream.ts).
  if (!r) {
    if (!ctx.stream && thinksByDefault(ctx.upstreamModel)) out.enable_thinking = false;
    return out;
  }
  const effort = effortOf(r);
  if (effort === undefined) return out;
  out.enable_thinking = effort !== 'none';
  const budget = budgetOf(r);
  if (out.enable_thinking && budget !== undefined && budget > 0 && out.thinking_budget === undefined)
    out.thinking_budget = budget;
  return out;
}

async function buildCompatibleRequest(ctx: AttemptContext, body: Json): Promise<UpstreamRequest> {
  const req = await openAIAdapter.buildRequest(ctx, body);
  // Most bodies go as the OpenAI code rendered them; only reasoning asks and stream-only models are reworked.
  const reworked =
    body.reasoning !== undefined ||
    body.reasoning_effort !== undefined ||
    (!ctx.stream &&
      (body.enable_thinking === true || thinksAlways(ctx.upstreamModel) || thinksByDefault(ctx.upstreamModel)));
  if (ctx.mode !== 'chat' || typeof req.body !== 'string' || !reworked) return { ...req, url: compatibleUrl(ctx) };
  const out = withQwenThinking(ctx, body, JSON.parse(req.body) as Json);
  // A model that only streams, asked without a stream: streamed and gathered (thinking-stream.ts).
  if (streamOnly(ctx, out))
    return {
      ...req,
      url: compatibleUrl(ctx),
      headers: { ...req.headers, accept: 'text/event-stream' },
      body: JSON.stringify(asGatheredStream(out)),
    };
  return { ...req, url: compatibleUrl(ctx), body: JSON.stringify(out) };
}

/** Compatible mode's `GET /compatible-mode/v1/models` (OpenAI's `{data: [{id}]}`). */
const aliModels: ChannelQuery<string[]> = {
  requests: (base, key) => [
    bearerGet(`${base.replace(/\/compatible-mode\/v1\/?$/, '')}/compatible-mode/v1/models`, key),
  ],
  read: ([body]) => ((body as { data?: { id?: unknown }[] } | null)?.data ?? []).map((m) => String(m.id ?? '')),
};

export const aliAdapter: ProviderAdapter = {
  ...openAIAdapter,
  id: 'ali',
  balances: undefined,
  supports: (mode) => mode in compatiblePath || mode === 'images' || mode === 'rerank',

  buildRequest(ctx, body) {
    if (ctx.mode === 'images') return buildImageTask(ctx, body);
    if (ctx.mode === 'rerank') return buildRerankRequest(ctx, body);
    return buildCompatibleRequest(ctx, body);
  },

  // An image is an async task polled to completion; everything else is one HTTP exchange.
  send(ctx, req, signal) {
    if (ctx.mode === 'images') return sendImageTask(req, signal);
    return isGathered(ctx, req)
      ? sendGathered(req, signal, ctx.headersTimeoutMs)
      : sendUpstream(req, signal, ctx.headersTimeoutMs);
  },

  convertResponse(ctx, text) {
    // The images answer was built by sendImageTask; the price is per image (serve.ts: n calls).
    if (ctx.mode === 'images') return { body: text, produced: '' };
    if (ctx.mode === 'rerank') return rerankAnswer(ctx, text);
    // A gathered stream is read as the completion it adds up to, then as any completion.
    return openAIAdapter.convertResponse(ctx, isGatheredText(ctx, text) ? gatheredCompletion(ctx, text) : text);
  },

  mapError: mapAliError,
  models: aliModels,
};
