import { ChannelType } from '../../../shared/channel-types.ts';
import { VIDEO_TYPES_WITHOUT_MODEL_LIST } from '../../../shared/video-models.ts';
import { aiProxyLibraryAdapter } from './aiproxy-library/adapter.ts';
import { aliAdapter } from './ali/adapter.ts';
import { anthropicAdapter } from './anthropic/adapter.ts';
import { azureAdapter } from './azure/adapter.ts';
import { baiduAdapter } from './baidu/adapter.ts';
import { bedrockAdapter } from './bedrock/adapter.ts';
import { cloudflareAdapter } from './cloudflare/adapter.ts';
import { cozeAdapter } from './coze/adapter.ts';
import { difyAdapter } from './dify/adapter.ts';
import { geminiAdapter } from './gemini/adapter.ts';
import { cohereAdapter, jinaAdapter } from './rerank/adapter.ts';
import { openAIAdapter } from './openai/adapter.ts';
import { palmAdapter } from './palm/adapter.ts';
import { replicateAdapter } from './replicate/adapter.ts';
import { openAIModels } from './openai/models.ts';
import { type ChannelQuery, defaultModelsQuery } from './shared/channel-query.ts';
import { tencentAdapter } from './tencent/adapter.ts';
import type { ProviderAdapter } from './types.ts';
import { IMAGE_UPSTREAMS } from '../images/upstreams.ts';
import { imagesOnly, makesImagesOnly, withImages } from '../images/upstream.ts';
import { vertexAdapter } from './vertex/adapter.ts';
import { xunfeiAdapter } from './xunfei/adapter.ts';
import { zhipuAdapter } from './zhipu/adapter.ts';

/*
 * Channel type -> adapter, by the type names of shared/channel-types.ts. OpenAI-compatible
 * types share the OpenAI adapter with their own base URLs. A native protocol is one folder
 * under providers/ (its adapter with conversion, usage, error and retry rules, balance and
 * model-list queries) plus one line below; docs/providers.md is generated from this table.
 */
const T = ChannelType;
const openAICompatible = [
  // An imported channel of type 0 (new-api's "unknown") relays as OpenAI, as in new-api.
  T.Unknown,
  T.OpenAI,
  T.Ollama,
  T.OpenAIMax,
  T.OhMyGPT,
  T.Custom,
  T.AILS,
  T.AIProxy,
  T.API2GPT,
  T.AIGC2D,
  T.AI360,
  T.OpenRouter,
  T.FastGPT,
  T.Moonshot,
  T.ZhipuV4,
  T.Perplexity,
  T.LingYiWanWu,
  T.MiniMax,
  T.SiliconFlow,
  T.Mistral,
  T.DeepSeek,
  T.MokaAI,
  T.VolcEngine,
  T.BaiduV2,
  T.Xinference,
  T.XAI,
];

const registry = new Map<number, ProviderAdapter>([
  ...openAICompatible.map((t) => [t, openAIAdapter] as const),
  [T.Azure, azureAdapter],
  [T.Anthropic, anthropicAdapter],
  [T.Gemini, geminiAdapter],
  [T.Bedrock, bedrockAdapter],
  [T.Cohere, cohereAdapter],
  [T.Jina, jinaAdapter],
  [T.Tencent, tencentAdapter],
  [T.Cloudflare, cloudflareAdapter],
  [T.PaLM, palmAdapter],
  [T.AIProxyLibrary, aiProxyLibraryAdapter],
  [T.XunfeiSpark, xunfeiAdapter],
  [T.Dify, difyAdapter],
  [T.Coze, cozeAdapter],
  [T.Baidu, baiduAdapter],
  [T.Ali, aliAdapter],
  [T.VertexAI, vertexAdapter],
  [T.Zhipu, zhipuAdapter],
  [T.Replicate, replicateAdapter],
]);

// Image APIs that differ from OpenAI's (issue 44): in front of the type's chat adapter, or alone.
for (const [type, images] of IMAGE_UPSTREAMS) {
  const chat = registry.get(type);
  if (makesImagesOnly(chat)) continue; // already its images-only adapter (Replicate's, with its own queries)
  registry.set(type, chat ? withImages(chat, images) : imagesOnly(images, openAIAdapter.mapError));
}

/** The adapter for a channel type; undefined when the type has none (the channel cannot serve). */
export const adapterFor = (type: number): ProviderAdapter | undefined => registry.get(type);

/** update_balance's query for a channel type (relay.md §4); undefined when its provider has no balance endpoint. */
export const balanceQueryFor = (type: number): ChannelQuery<number> | undefined => adapterFor(type)?.balances?.[type];

/**
 * fetch_models' query for a channel type: its provider's, else OpenAI's `GET /v1/models` (types without an
 * adapter too), except the video-only types whose APIs list nothing: their usual model names.
 */
export const modelsQueryFor = (type: number): ChannelQuery<string[]> =>
  adapterFor(type)?.models ?? (VIDEO_TYPES_WITHOUT_MODEL_LIST.includes(type) ? defaultModelsQuery(type) : openAIModels);

/** Every registered channel type with its adapter, by type id (the docs generator reads this). */
export const registeredAdapters = (): [number, ProviderAdapter][] => [...registry].sort((a, b) => a[0] - b[0]);

/** For provider modules: registers (or replaces) the adapter of a channel type. */
export function registerAdapter(type: number, adapter: ProviderAdapter): void {
  registry.set(type, adapter);
}
