import { anthropicAdapter } from '../anthropic/adapter.ts';
import { baseModel } from '../anthropic/request.ts';
import { geminiAdapter } from '../gemini/adapter.ts';
import { tokenCountFor } from '../native-support.ts';
import type { AttemptContext, NativeTokenCount, UpstreamRequest } from '../types.ts';
import { vertexClaudeRequest, vertexGeminiRequest, withVertexAuth } from './adapter.ts';
import { vertexClaudeId, vertexUrl } from './urls.ts';
import { parseVertexKey } from './credentials.ts';

/*
 * Vertex's token counting. For Gemini models: `:countTokens` on the Google publisher. Vertex's body
 * has the generate request's fields at the top (contents, systemInstruction, tools, generationConfig),
 * so AI Studio's `{generateContentRequest: {...}}` form is unwrapped. The bearer token is added here
 * (counts do not go through the adapter's `send`); a refused key fails the count, which the relay
 * then makes itself.
 */
export const vertexGeminiCount: NativeTokenCount = {
  protocol: 'gemini',
  async buildRequest(ctx: AttemptContext, body: Record<string, unknown>): Promise<UpstreamRequest> {
    const inner = body.generateContentRequest as Record<string, unknown> | undefined;
    const { model: _m, ...fields } = inner ?? body;
    const req = vertexGeminiRequest(
      { ...ctx, stream: false },
      { url: '', method: 'POST', headers: {}, body: JSON.stringify(fields) },
      'countTokens',
    );
    return authorized(ctx, req);
  },
  inputTokensOf: (text) => tokenCountFor(geminiAdapter, 'gemini')!.inputTokensOf(text),
};

/**
 * Claude's token counting on Vertex: `publishers/anthropic/models/count-tokens:rawPredict`, the
 * count body with the model (in Vertex's spelling) inside it, as Vertex documents it.
 */
export const vertexClaudeCount: NativeTokenCount = {
  protocol: 'anthropic',
  async buildRequest(ctx, body, clientHeaders): Promise<UpstreamRequest> {
    const model = vertexClaudeRequest({ ...ctx, stream: false }, {}, clientHeaders?.['anthropic-beta']);
    const url = vertexUrl(ctx, parseVertexKey(ctx.key), 'count-tokens', 'rawPredict', 'anthropic');
    const counted = { ...body, model: vertexClaudeId(baseModel(ctx.upstreamModel)) };
    return authorized(ctx, { ...model, url, body: JSON.stringify(counted) });
  },
  inputTokensOf: (text) => tokenCountFor(anthropicAdapter, 'anthropic')!.inputTokensOf(text),
};

async function authorized(ctx: AttemptContext, req: UpstreamRequest) {
  const auth = await withVertexAuth(ctx, req);
  if (auth.refused) throw new Error(`Vertex AI refused the service account (HTTP ${auth.refused.refusedStatus})`);
  return auth.req!;
}
