import { openAIAdapter } from '../openai/adapter.ts';
import type { ProviderAdapter } from '../types.ts';

/** Cohere (34): rerank only (its chat and embed APIs are not OpenAI's); `{base}/v1/rerank`, Bearer key. */
export const cohereAdapter: ProviderAdapter = {
  ...openAIAdapter,
  id: 'cohere',
  supports: (mode) => mode === 'rerank',
};

/** Jina (38): rerank and OpenAI-compatible embeddings. */
export const jinaAdapter: ProviderAdapter = {
  ...openAIAdapter,
  id: 'jina',
  supports: (mode) => mode === 'rerank' || mode === 'embeddings',
};
