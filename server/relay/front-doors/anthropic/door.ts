import { schemaRefusal } from '../../errors.ts';
import { nativeSupportFor } from '../../providers/native-support.ts';
import { completionTextOf, countPromptTokens, loadTokenizers } from '../../usage.ts';
import type { FrontDoor } from '../types.ts';
import {
  anthropicBody,
  anthropicToOpenAI,
  forcedServerTool,
  serverToolsOf,
  withoutGatewayThinking,
} from './request.ts';
import { openAIToAnthropicResponse } from './response.ts';
import { toAnthropicStream } from './stream.ts';

/** POST /v1/messages (relay.md §1): Anthropic in, Anthropic out, whatever the channel speaks. */
export const anthropicDoor: FrontDoor = {
  protocol: 'anthropic',

  parse(req) {
    const parsed = anthropicBody.safeParse(req.body ?? {});
    if (!parsed.success) throw schemaRefusal(parsed.error.issues[0]?.message, 'invalid_request_error');
    // A converted answer reports the prompt's size before the upstream does (message_start): the
    // tokenizer loads now, while the upstream works.
    void loadTokenizers();
    // Beta features (e.g. a longer context or a new tool) are asked for by header; an Anthropic channel gets it too.
    const beta = req.headers['anthropic-beta'];
    const headers = beta ? { 'anthropic-beta': Array.isArray(beta) ? beta.join(',') : beta } : undefined;
    return {
      canonical: anthropicToOpenAI(parsed.data),
      body: withoutGatewayThinking(parsed.data),
      headers,
      nativeOnly: forcedServerTool(parsed.data),
      droppedTools: serverToolsOf(parsed.data),
    };
  },

  convertResponse(ok, text, canonical) {
    if (ok.native)
      return {
        body: text,
        usage: nativeSupportFor(ok.adapter, 'anthropic')?.usageOf(text),
        produced: nativeText(text),
      };
    const inner = ok.adapter.convertResponse(ok.ctx, text);
    const prompt = inner.usage || !canonical ? 0 : countPromptTokens(String(canonical.model), canonical);
    const body = openAIToAnthropicResponse(inner.body, inner.usage, ok.ctx.upstreamModel, prompt);
    return { body, usage: inner.usage, produced: completionTextOf(inner.body) };
  },

  createStreamConverter(ok, canonical) {
    const support = ok.native ? nativeSupportFor(ok.adapter, 'anthropic') : undefined;
    if (support) return support.createStreamWatcher(ok.ctx);
    // message_start needs the prompt's size before any upstream usage: the gateway counts it (once).
    let prompt: number | undefined;
    const promptTokens = () => (prompt ??= canonical ? countPromptTokens(String(canonical.model), canonical) : 0);
    // Usage always flows through the inner converter: Anthropic's message_delta reports it.
    return toAnthropicStream(ok.adapter.createStreamConverter(ok.ctx, true), ok.ctx.upstreamModel, promptTokens);
  },
};

/** Generated text of an Anthropic answer, for tokenizer billing when the upstream reported no usage. */
function nativeText(text: string): string {
  try {
    const m = JSON.parse(text) as { content?: { text?: string; thinking?: string; input?: unknown }[] };
    return (m.content ?? []).map((b) => b.text ?? b.thinking ?? (b.input ? JSON.stringify(b.input) : '')).join('');
  } catch {
    return '';
  }
}
