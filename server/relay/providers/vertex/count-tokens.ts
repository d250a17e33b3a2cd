import { geminiAdapter } from '../gemini/adapter.ts';
import type { AttemptContext, NativeTokenCount, UpstreamRequest } from '../types.ts';
import { withVertexAuth, vertexGeminiRequest } from './adapter.ts';

/*
 * Vertex's token counting for Gemini models: `:countTokens` on the Google publisher. Vertex's body
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
    const auth = await withVertexAuth(ctx, req);
    if (auth.refused) throw new Error(`Vertex AI refused the service account (HTTP ${auth.refused.refusedStatus})`);
    return auth.req!;
  },
  inputTokensOf: (text) => geminiAdapter.countTokens!.inputTokensOf(text),
};
