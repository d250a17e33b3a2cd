import { DEFAULT_AZURE_API_VERSION } from '../../../config.ts';
import { openAIAdapter } from '../openai/adapter.ts';
import type { AttemptContext, ProviderAdapter, RelayMode, UpstreamRequest } from '../types.ts';

/** Used when the channel's `other` names no api-version: AZURE_DEFAULT_API_VERSION (server/config.ts). */
let defaultApiVersion = DEFAULT_AZURE_API_VERSION;

/**
 * Sets the api-version of channels that name none; the relay runtime calls it with the configured
 * AZURE_DEFAULT_API_VERSION when it starts. Process-wide, like the environment it comes from (the
 * relay and the admin's channel test then send the same version).
 */
export function setAzureDefaultApiVersion(version: string): void {
  defaultApiVersion = version;
}

const task: Record<RelayMode, string> = {
  chat: 'chat/completions',
  completions: 'completions',
  embeddings: 'embeddings',
  responses: 'responses',
  moderations: 'moderations',
  rerank: 'rerank',
  images: 'images/generations',
  image_edits: 'images/edits',
  speech: 'audio/speech',
  transcriptions: 'audio/transcriptions',
  translations: 'audio/translations',
};

/** The channel's `other` holds the api-version (new-api convention), plain or as `{"api_version": ...}`. */
export function azureApiVersion(other: string): string {
  const v = other.trim();
  if (v.startsWith('{'))
    try {
      const o = JSON.parse(v) as { api_version?: string };
      return o.api_version || defaultApiVersion;
    } catch {
      return defaultApiVersion;
    }
  return v || defaultApiVersion;
}

/** `{base}/openai/deployments/{model}/{task}?api-version=...`; deployments are named without dots (gpt-4o, gpt-35-turbo). */
export function azureUrl(ctx: AttemptContext, path = task[ctx.mode]): string {
  const deployment = ctx.upstreamModel.replace(/\./g, '');
  return `${ctx.channel.baseUrl}/openai/deployments/${encodeURIComponent(deployment)}/${path}?api-version=${azureApiVersion(ctx.channel.other)}`;
}

/** Azure OpenAI (type 3): OpenAI's wire format behind deployment URLs and an `api-key` header. */
export const azureAdapter: ProviderAdapter = {
  ...openAIAdapter,
  id: 'azure',
  async buildRequest(ctx, body): Promise<UpstreamRequest> {
    const req = await openAIAdapter.buildRequest(ctx, body);
    const headers: Record<string, string> = { ...req.headers, 'api-key': ctx.key };
    delete headers.authorization;
    return { ...req, url: azureUrl(ctx), headers };
  },
};
