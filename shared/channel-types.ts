/*
 * The channel-type table (relay.md §9). The numbers are new-api's and must never
 * change: imported databases and existing clients store them. `defaultModels`
 * feeds GET /api/models (the console prefills a new channel's models from it) and
 * the list of known models; it is a sensible starting set, not a limit.
 */

export interface ChannelTypeInfo {
  id: number;
  /** The type's name in code: `ChannelType.Anthropic` is 14. */
  key: string;
  name: string;
  /** Empty when the user must give the endpoint (Azure, self-hosted proxies). */
  baseUrl: string;
  defaultModels: readonly string[];
}

const openai = [
  'gpt-4o',
  'gpt-4o-mini',
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4.1-nano',
  'o1',
  'o3',
  'o3-mini',
  'o4-mini',
  'gpt-4-turbo',
  'gpt-3.5-turbo',
  'text-embedding-3-small',
  'text-embedding-3-large',
  'text-embedding-ada-002',
  'dall-e-3',
  'gpt-image-1',
  'whisper-1',
  'tts-1',
  'tts-1-hd',
  'omni-moderation-latest',
] as const;

const claude = [
  'claude-opus-4-1-20250805',
  'claude-opus-4-20250514',
  'claude-sonnet-4-20250514',
  'claude-3-7-sonnet-20250219',
  'claude-3-5-sonnet-20241022',
  'claude-3-5-haiku-20241022',
  'claude-3-haiku-20240307',
] as const;

const gemini = [
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'gemini-2.5-flash-lite',
  'gemini-2.0-flash',
  'gemini-2.0-flash-lite',
  'gemini-1.5-pro',
  'gemini-1.5-flash',
  'text-embedding-004',
] as const;

/** Imagen and Gemini's image models on the Gemini API and Vertex AI (issue 44). */
const googleImage = ['imagen-4.0-generate-001', 'imagen-4.0-fast-generate-001', 'gemini-2.5-flash-image'] as const;

/** Veo on the Gemini API and Vertex AI (issue 40). */
const veo = ['veo-3.0-generate-001', 'veo-3.0-fast-generate-001', 'veo-3.1-generate-preview'] as const;

const zhipu = [
  'glm-4.5',
  'glm-4.5-air',
  'glm-4-plus',
  'glm-4-flash',
  'glm-4v-plus',
  'embedding-3',
  'cogview-4-250304',
  'cogview-3-flash',
] as const;

/** Midjourney-proxy and Suno channels carry task "models" (priced per action). */
const midjourney = [
  'mj_imagine',
  'mj_variation',
  'mj_reroll',
  'mj_blend',
  'mj_upscale',
  'mj_describe',
  'mj_zoom',
  'mj_shorten',
  'mj_modal',
  'mj_inpaint',
  'mj_custom_zoom',
  'mj_high_variation',
  'mj_low_variation',
  'mj_pan',
  'mj_uploads',
  'swap_face',
] as const;

/** One row; the key and id keep their literal types so `ChannelType` below is typed from the rows. */
const t = <const K extends string, const I extends number>(
  key: K,
  id: I,
  name: string,
  baseUrl: string,
  defaultModels: readonly string[] = [],
) => ({ key, id, name, baseUrl, defaultModels });

const TABLE = [
  t('Unknown', 0, 'Unknown', ''),
  t('OpenAI', 1, 'OpenAI', 'https://api.openai.com', openai),
  t('MidjourneyProxy', 2, 'Midjourney-Proxy', '', midjourney),
  t('Azure', 3, 'Azure OpenAI', '', openai),
  t('Ollama', 4, 'Ollama', 'http://localhost:11434', [
    'llama3.1',
    'llama3.2',
    'qwen2.5',
    'deepseek-r1',
    'nomic-embed-text',
  ]),
  t('MidjourneyPlus', 5, 'Midjourney-Plus', '', midjourney),
  t('OpenAIMax', 6, 'OpenAIMax', '', openai),
  t('OhMyGPT', 7, 'OhMyGPT', 'https://api.ohmygpt.com', openai),
  t('Custom', 8, 'Custom', '', []),
  t('AILS', 9, 'AILS', 'https://api.caipacity.com', openai),
  t('AIProxy', 10, 'AIProxy', 'https://api.aiproxy.io', openai),
  t('PaLM', 11, 'PaLM', 'https://generativelanguage.googleapis.com', ['chat-bison-001']),
  t('API2GPT', 12, 'API2GPT', 'https://api.api2gpt.com', openai),
  t('AIGC2D', 13, 'AIGC2D', 'https://api.aigc2d.com', openai),
  t('Anthropic', 14, 'Anthropic', 'https://api.anthropic.com', claude),
  t('Baidu', 15, 'Baidu', 'https://aip.baidubce.com', [
    'ERNIE-4.0-8K',
    'ERNIE-3.5-8K',
    'ERNIE-Speed-128K',
    'ERNIE-Lite-8K',
    'Embedding-V1',
  ]),
  t('Zhipu', 16, 'Zhipu', 'https://open.bigmodel.cn', ['chatglm_turbo', 'chatglm_pro', 'chatglm_std', 'chatglm_lite']),
  t('Ali', 17, 'Ali', 'https://dashscope.aliyuncs.com', [
    'qwen-max',
    'qwen-plus',
    'qwen-turbo',
    'qwen-long',
    'qwen3-235b-a22b',
    'qwen3-coder-plus',
    'text-embedding-v3',
    // Wan video (DashScope video synthesis, issue 40)
    'wan2.2-t2v-plus',
    'wan2.2-i2v-plus',
  ]),
  t('XunfeiSpark', 18, 'Xunfei Spark', 'https://spark-api.xf-yun.com', [
    'SparkDesk-v4.0',
    'SparkDesk-v3.5',
    'SparkDesk-v3.1',
    'SparkDesk-v2.1',
    'SparkDesk-lite',
  ]),
  t('AI360', 19, '360', 'https://api.360.cn', ['360gpt-pro', '360gpt-turbo', '360gpt2-pro', 'embedding-bert-512-v1']),
  t('OpenRouter', 20, 'OpenRouter', 'https://openrouter.ai/api', [
    'openai/gpt-4o',
    'openai/gpt-4o-mini',
    'anthropic/claude-sonnet-4',
    'google/gemini-2.5-pro',
    'deepseek/deepseek-chat',
    'meta-llama/llama-3.1-70b-instruct',
  ]),
  t('AIProxyLibrary', 21, 'AIProxyLibrary', 'https://api.aiproxy.io', []),
  t('FastGPT', 22, 'FastGPT', 'https://fastgpt.run/api/openapi', []),
  t('Tencent', 23, 'Tencent Hunyuan', 'https://hunyuan.tencentcloudapi.com', [
    'hunyuan-turbos-latest',
    'hunyuan-large',
    'hunyuan-standard',
    'hunyuan-lite',
    'hunyuan-embedding',
  ]),
  t('Gemini', 24, 'Gemini', 'https://generativelanguage.googleapis.com', [...gemini, ...googleImage, ...veo]),
  t('Moonshot', 25, 'Moonshot', 'https://api.moonshot.cn', [
    'kimi-k2-0711-preview',
    'moonshot-v1-8k',
    'moonshot-v1-32k',
    'moonshot-v1-128k',
  ]),
  t('ZhipuV4', 26, 'Zhipu v4', 'https://open.bigmodel.cn', zhipu),
  t('Perplexity', 27, 'Perplexity', 'https://api.perplexity.ai', [
    'sonar',
    'sonar-pro',
    'sonar-reasoning',
    'sonar-reasoning-pro',
    'sonar-deep-research',
  ]),
  t('LingYiWanWu', 31, '01.AI', 'https://api.lingyiwanwu.com', ['yi-lightning', 'yi-large', 'yi-medium', 'yi-vision']),
  t('Bedrock', 33, 'AWS Bedrock', '', [
    'anthropic.claude-3-5-sonnet-20241022-v2:0',
    'anthropic.claude-3-7-sonnet-20250219-v1:0',
    'anthropic.claude-sonnet-4-20250514-v1:0',
    'anthropic.claude-3-5-haiku-20241022-v1:0',
    'amazon.nova-pro-v1:0',
    'amazon.nova-lite-v1:0',
    'meta.llama3-3-70b-instruct-v1:0',
  ]),
  t('Cohere', 34, 'Cohere', 'https://api.cohere.ai', [
    'command-r-plus',
    'command-r',
    'command-a-03-2025',
    'rerank-v3.5',
    'embed-multilingual-v3.0',
  ]),
  t('MiniMax', 35, 'MiniMax', 'https://api.minimax.chat', [
    'MiniMax-M1',
    'MiniMax-Text-01',
    'abab6.5s-chat',
    'MiniMax-Hailuo-02',
    'image-01',
  ]),
  t('Suno', 36, 'Suno', '', ['suno_music', 'suno_lyrics']),
  t('Dify', 37, 'Dify', 'https://api.dify.ai', ['dify']),
  t('Jina', 38, 'Jina', 'https://api.jina.ai', [
    'jina-embeddings-v3',
    'jina-reranker-v2-base-multilingual',
    'jina-colbert-v2',
  ]),
  t('Cloudflare', 39, 'Cloudflare Workers AI', 'https://api.cloudflare.com', [
    '@cf/meta/llama-3.1-8b-instruct',
    '@cf/meta/llama-3.3-70b-instruct-fp8-fast',
    '@cf/qwen/qwen1.5-14b-chat-awq',
    '@cf/baai/bge-m3',
  ]),
  t('SiliconFlow', 40, 'SiliconFlow', 'https://api.siliconflow.cn', [
    'deepseek-ai/DeepSeek-V3',
    'deepseek-ai/DeepSeek-R1',
    'Qwen/Qwen3-235B-A22B',
    'Qwen/Qwen2.5-72B-Instruct',
    'BAAI/bge-m3',
    'Kwai-Kolors/Kolors',
    'black-forest-labs/FLUX.1-schnell',
    'Qwen/Qwen-Image',
  ]),
  t('VertexAI', 41, 'Vertex AI', '', [
    ...gemini.filter((m) => m.startsWith('gemini')),
    ...claude.slice(0, 4),
    ...googleImage,
    ...veo,
  ]),
  t('Mistral', 42, 'Mistral', 'https://api.mistral.ai', [
    'mistral-large-latest',
    'mistral-medium-latest',
    'mistral-small-latest',
    'codestral-latest',
    'mistral-embed',
  ]),
  t('DeepSeek', 43, 'DeepSeek', 'https://api.deepseek.com', ['deepseek-chat', 'deepseek-reasoner']),
  t('MokaAI', 44, 'MokaAI', 'https://api.moka.ai', ['m3e-large', 'm3e-base', 'm3e-small']),
  t('VolcEngine', 45, 'VolcEngine', 'https://ark.cn-beijing.volces.com', [
    'doubao-seed-1-6-250615',
    'doubao-1-5-pro-32k-250115',
    'doubao-1-5-lite-32k-250115',
    'deepseek-v3-250324',
    'doubao-embedding-text-240715',
    'doubao-seedance-1-0-pro-250528',
    'doubao-seedream-4-0-250828',
    'doubao-seedream-3-0-t2i-250415',
    'doubao-seededit-3-0-i2i-250628',
  ]),
  t('BaiduV2', 46, 'Baidu v2', 'https://qianfan.baidubce.com', [
    'ernie-4.5-turbo-128k',
    'ernie-4.0-turbo-8k',
    'ernie-3.5-8k',
    'ernie-speed-128k',
  ]),
  t('Xinference', 47, 'Xinference', '', ['qwen2.5-instruct', 'bge-m3', 'bge-reranker-v2-m3']),
  t('XAI', 48, 'xAI', 'https://api.x.ai', [
    'grok-4',
    'grok-3',
    'grok-3-mini',
    'grok-2-vision-1212',
    'grok-2-image-1212',
  ]),
  t('Coze', 49, 'Coze', 'https://api.coze.cn', []),
  // Video task upstreams (issue 40): priced per second of video (or per job), relayed by tasks/video.
  t('Kling', 50, 'Kling', 'https://api-beijing.klingai.com', [
    'kling-v2-1',
    'kling-v2-1-master',
    'kling-v2-master',
    'kling-v1-6',
  ]),
  t('Jimeng', 51, 'Jimeng', 'https://visual.volcengineapi.com', [
    'jimeng_vgfm_t2v_l20',
    'jimeng_vgfm_i2v_l20',
    'jimeng_ti2v_v30_pro',
    // Jimeng images by their req_key (issue 44)
    'jimeng_t2i_v40',
    'jimeng_t2i_v31',
    'jimeng_i2i_v30',
  ]),
  t('Vidu', 52, 'Vidu', 'https://api.vidu.cn', ['viduq1', 'viduq1-classic', 'vidu2.0', 'vidu1.5']),
  t('DoubaoVideo', 54, 'Doubao Video', 'https://ark.cn-beijing.volces.com', [
    'doubao-seedance-1-0-pro-250528',
    'doubao-seedance-1-0-lite-t2v-250428',
    'doubao-seedance-1-0-lite-i2v-250428',
  ]),
  t('Sora', 55, 'Sora', 'https://api.openai.com', ['sora-2', 'sora-2-pro']),
  // Replicate's predictions API (issue 44): image models by their owner/name.
  t('Replicate', 56, 'Replicate', 'https://api.replicate.com', [
    'black-forest-labs/flux-schnell',
    'black-forest-labs/flux-1.1-pro',
    'black-forest-labs/flux-dev',
    'ideogram-ai/ideogram-v3-turbo',
  ]),
];

export const CHANNEL_TYPES: readonly ChannelTypeInfo[] = TABLE;

type Row = (typeof TABLE)[number];

/**
 * Channel type ids by name, read from the table (`ChannelType.Anthropic === 14`): code names a type
 * instead of writing its number.
 */
export const ChannelType = Object.fromEntries(TABLE.map((r) => [r.key, r.id])) as {
  readonly [R in Row as R['key']]: R['id'];
};

const byId = new Map(CHANNEL_TYPES.map((c) => [c.id, c]));

export const channelTypeInfo = (id: number): ChannelTypeInfo | undefined => byId.get(id);
export const isKnownChannelType = (id: number) => byId.has(id);

/** Channel types that only run video tasks (issue 40). */
export const VIDEO_CHANNEL_TYPES: readonly number[] = [
  ChannelType.Kling,
  ChannelType.Jimeng,
  ChannelType.Vidu,
  ChannelType.DoubaoVideo,
  ChannelType.Sora,
];

/** Midjourney-Proxy, Midjourney-Plus, Suno and the video types: the console prefills task models for them. */
export const TASK_CHANNEL_TYPES: readonly number[] = [
  ChannelType.MidjourneyProxy,
  ChannelType.MidjourneyPlus,
  ChannelType.Suno,
  ...VIDEO_CHANNEL_TYPES,
];

/**
 * How the console groups the types in its type picker: the common ones first, then by kind; a type
 * listed in no group shows under `vendors`. Retired APIs still relay, but new channels use their successor.
 */
export type ChannelTypeGroup = 'popular' | 'vendors' | 'proxies' | 'china' | 'selfHosted' | 'tasks' | 'retired';

const T = ChannelType;

const GROUP_MEMBERS: Record<Exclude<ChannelTypeGroup, 'vendors'>, readonly number[]> = {
  popular: [T.OpenAI, T.Anthropic, T.Gemini, T.Azure, T.Bedrock, T.VertexAI, T.OpenRouter, T.DeepSeek, T.XAI],
  proxies: [T.Custom, T.OpenAIMax, T.OhMyGPT, T.AILS, T.AIProxy, T.API2GPT, T.AIGC2D, T.AIProxyLibrary],
  china: [
    T.Ali,
    T.BaiduV2,
    T.ZhipuV4,
    T.Moonshot,
    T.VolcEngine,
    T.SiliconFlow,
    T.Tencent,
    T.XunfeiSpark,
    T.MiniMax,
    T.LingYiWanWu,
    T.AI360,
    T.Coze,
  ],
  selfHosted: [T.Ollama, T.Xinference, T.Dify, T.FastGPT],
  tasks: [T.MidjourneyProxy, T.MidjourneyPlus, T.Suno, T.Sora, T.Kling, T.Jimeng, T.Vidu, T.DoubaoVideo],
  retired: [T.PaLM, T.Baidu, T.Zhipu],
};

/** The picker's order of groups. */
export const CHANNEL_TYPE_GROUPS: readonly ChannelTypeGroup[] = [
  'popular',
  'vendors',
  'proxies',
  'china',
  'selfHosted',
  'tasks',
  'retired',
];

const groupOf = new Map<number, ChannelTypeGroup>(
  Object.entries(GROUP_MEMBERS).flatMap(([g, ids]) => ids.map((id) => [id, g as ChannelTypeGroup] as const)),
);

export const channelTypeGroup = (id: number): ChannelTypeGroup => groupOf.get(id) ?? 'vendors';

/** Every type a channel can be created with (not Unknown), group by group in picker order; within a group, the table's order (popular: as listed). */
export function groupedChannelTypes(): { group: ChannelTypeGroup; types: ChannelTypeInfo[] }[] {
  return CHANNEL_TYPE_GROUPS.map((group) => {
    const listed = group === 'vendors' ? undefined : GROUP_MEMBERS[group];
    const types = listed
      ? listed.map((id) => byId.get(id)!)
      : CHANNEL_TYPES.filter((c) => c.id !== T.Unknown && channelTypeGroup(c.id) === 'vendors');
    return { group, types };
  });
}
