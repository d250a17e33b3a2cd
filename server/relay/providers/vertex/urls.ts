import { baseModel } from '../anthropic/request.ts';
import type { AttemptContext } from '../types.ts';
import type { VertexKey } from './credentials.ts';

/*
 * Where a Vertex AI call goes. The region comes from the channel's `other`: one region
 * (`us-central1`, `global`), or a JSON object of model -> region with a `default` (else `global`),
 * as new-api reads it. The regional host is `{region}-aiplatform.googleapis.com`, `global`'s is
 * `aiplatform.googleapis.com`; a base URL set on the channel (a proxy, a test double) replaces it.
 */

/** The region of a model from the channel's `other`. */
export function vertexRegion(other: string, model: string): string {
  const text = other.trim();
  if (!text.startsWith('{')) return text || 'global';
  try {
    const map = JSON.parse(text) as Record<string, unknown>;
    for (const k of [model, 'default']) if (typeof map[k] === 'string' && map[k].trim()) return map[k].trim();
  } catch {
    // The channel form refuses malformed JSON; an imported one falls back like new-api's.
  }
  return 'global';
}

/** Anthropic names Vertex spells differently (new-api's table); others take `@` before their date. */
const CLAUDE_IDS: Record<string, string> = { 'claude-3-5-sonnet-20241022': 'claude-3-5-sonnet-v2@20241022' };

/** Claude models go to the Anthropic publisher; every other name to Google's. */
export const isClaude = (model: string) => model.startsWith('claude');

/** `claude-sonnet-4-20250514` -> `claude-sonnet-4@20250514` (a name with `@` as it is). */
export function vertexClaudeId(model: string): string {
  const m = baseModel(model);
  return CLAUDE_IDS[m] ?? m.replace(/-(\d{8})$/, '@$1');
}

/** What a Vertex URL is built from: the channel (base URL, region map) and the model it sends. */
export type VertexTarget = Pick<AttemptContext, 'channel' | 'upstreamModel'>;

function host(ctx: VertexTarget, region: string): string {
  const base = ctx.channel.baseUrl.replace(/\/v1(beta1)?$/, '');
  if (base) return base;
  return region === 'global' ? 'https://aiplatform.googleapis.com' : `https://${region}-aiplatform.googleapis.com`;
}

/**
 * `{host}/v1/projects/{project}/locations/{region}/publishers/{publisher}/models/{model}:{action}`
 * for a service account; express mode (an API key) has no project: `{host}/v1/publishers/google/...`.
 * The region is looked up by the model name the channel sends.
 */
export function vertexUrl(
  ctx: VertexTarget,
  key: VertexKey,
  model: string,
  action: string,
  publisher = isClaude(model) ? 'anthropic' : 'google',
): string {
  const region = vertexRegion(ctx.channel.other, ctx.upstreamModel);
  // `@` (claude-sonnet-4@20250514) stays as Vertex writes it; only what would break the path is escaped.
  const tail = `publishers/${publisher}/models/${model.replace(/[/?#%\s]/g, encodeURIComponent)}:${action}`;
  if (key.kind === 'api_key') return `${host(ctx, region)}/v1/${tail}`;
  const project = encodeURIComponent(key.account.project_id);
  return `${host(ctx, region)}/v1/projects/${project}/locations/${encodeURIComponent(region)}/${tail}`;
}
