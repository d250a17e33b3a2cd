import type { FastifyRequest } from 'fastify';
import { listModels, type ModelEntry, oneModel } from '../models.ts';
import type { RelayPrincipal } from '../principal.ts';
import type { RelayRuntime } from '../runtime.ts';
import { modelsDialect } from '../errors.ts';

/** One model as Gemini's models API describes it. */
const geminiModel = (m: ModelEntry) => ({
  name: `models/${m.id}`,
  version: '001',
  displayName: m.id,
  supportedGenerationMethods: ['generateContent', 'streamGenerateContent'],
});

/** Gemini's `GET /v1beta/models` shape for the models this key may use. */
export function geminiModels(rt: RelayRuntime, p: RelayPrincipal) {
  return { models: listModels(rt, p).data.map(geminiModel) };
}

/** One model as Anthropic's models API describes it. */
const anthropicModel = (m: ModelEntry) => ({
  type: 'model',
  id: m.id,
  display_name: m.id,
  created_at: new Date(m.created * 1000).toISOString(),
});

/** Anthropic's `GET /v1/models` shape. */
export function anthropicModels(rt: RelayRuntime, p: RelayPrincipal) {
  const data = listModels(rt, p).data.map(anthropicModel);
  return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
}

/** `GET /v1/models/{model}` in the caller's dialect (Anthropic's SDK retrieves a model there too). */
export function oneModelFor(rt: RelayRuntime, p: RelayPrincipal, req: FastifyRequest, model: string): unknown {
  const m = oneModel(rt, p, model);
  const d = modelsDialect(req);
  return d === 'anthropic' ? anthropicModel(m) : d === 'gemini' ? geminiModel(m) : m;
}

/** `GET /v1/models` in the caller's dialect. */
export function modelsFor(rt: RelayRuntime, p: RelayPrincipal, req: FastifyRequest): unknown {
  const d = modelsDialect(req);
  return d === 'anthropic' ? anthropicModels(rt, p) : d === 'gemini' ? geminiModels(rt, p) : listModels(rt, p);
}
