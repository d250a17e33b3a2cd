import type { FastifyRequest } from 'fastify';
import { listModels } from '../models.ts';
import type { RelayPrincipal } from '../principal.ts';
import type { RelayRuntime } from '../runtime.ts';

/** Gemini's `GET /v1beta/models` shape for the models this key may use. */
export function geminiModels(rt: RelayRuntime, p: RelayPrincipal) {
  return {
    models: listModels(rt, p).data.map((m) => ({
      name: `models/${m.id}`,
      version: '001',
      displayName: m.id,
      supportedGenerationMethods: ['generateContent', 'streamGenerateContent'],
    })),
  };
}

/** Anthropic's `GET /v1/models` shape. */
export function anthropicModels(rt: RelayRuntime, p: RelayPrincipal) {
  const data = listModels(rt, p).data.map((m) => ({
    type: 'model',
    id: m.id,
    display_name: m.id,
    created_at: new Date(m.created * 1000).toISOString(),
  }));
  return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}

/** Which dialect a `GET /v1/models` caller speaks (relay.md §1). */
export function modelsDialect(req: FastifyRequest): 'openai' | 'anthropic' | 'gemini' {
  const h = req.headers;
  if (typeof h['x-api-key'] === 'string' && h['anthropic-version']) return 'anthropic';
  if (typeof h['x-goog-api-key'] === 'string' || (req.query as { key?: unknown } | undefined)?.key) return 'gemini';
  return 'openai';
}

/** `GET /v1/models` in the caller's dialect. */
export function modelsFor(rt: RelayRuntime, p: RelayPrincipal, req: FastifyRequest): unknown {
  const d = modelsDialect(req);
  return d === 'anthropic' ? anthropicModels(rt, p) : d === 'gemini' ? geminiModels(rt, p) : listModels(rt, p);
}
