import { parseRerankUsage } from '../rerank/usage.ts';
import { unparsableUpstreamJson } from '../shared/error-body.ts';
import type { AttemptContext, Usage, UpstreamRequest } from '../types.ts';
import { aliRoot } from './images.ts';

/*
 * `/v1/rerank` on DashScope's native text-rerank API: `{model, input: {query, documents},
 * parameters: {top_n, return_documents}}` in, `{output: {results}, usage: {total_tokens}}` out.
 * The answer is given in the gateway's rerank shape (Jina's, as for the other rerank channels):
 * `{model, results: [{index, relevance_score, document}], usage: {total_tokens}}`.
 */

type Json = Record<string, unknown>;

export function buildRerankRequest(ctx: AttemptContext, body: Json): UpstreamRequest {
  const parameters: Json = {
    // As new-api: documents come back unless the client says otherwise.
    return_documents: typeof body.return_documents === 'boolean' ? body.return_documents : true,
  };
  if (typeof body.top_n === 'number') parameters.top_n = body.top_n;
  return {
    url: `${aliRoot(ctx)}/api/v1/services/rerank/text-rerank/text-rerank`,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.key}` },
    body: JSON.stringify({
      model: ctx.upstreamModel,
      input: { query: body.query, documents: body.documents },
      parameters,
    }),
  };
}

export function rerankAnswer(ctx: AttemptContext, text: string): { body: string; usage?: Usage; produced: string } {
  let o: { output?: { results?: unknown[] }; usage?: { total_tokens?: number }; request_id?: string };
  try {
    o = JSON.parse(text) as typeof o;
  } catch {
    throw unparsableUpstreamJson();
  }
  const body = JSON.stringify({
    id: o.request_id,
    model: ctx.upstreamModel,
    results: o.output?.results ?? [],
    usage: { total_tokens: o.usage?.total_tokens ?? 0 },
  });
  return { body, usage: parseRerankUsage(body), produced: '' };
}
