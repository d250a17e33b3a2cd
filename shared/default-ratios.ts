/*
 * Default model ratios (1 = $2 per 1M prompt tokens) and completion ratios
 * (output price / input price), from the providers' public list prices.
 * Operators edit them in the settings; these only seed a fresh install.
 */
export const defaultModelRatio: Record<string, number> = {
  'gpt-4o': 1.25,
  'gpt-4o-2024-11-20': 1.25,
  'gpt-4o-mini': 0.075,
  'gpt-4.1': 1,
  'gpt-4.1-mini': 0.2,
  'gpt-4.1-nano': 0.05,
  'gpt-4-turbo': 5,
  'gpt-4': 15,
  'gpt-3.5-turbo': 0.25,
  'gpt-3.5-turbo-instruct': 0.75,
  o1: 7.5,
  'o1-mini': 0.55,
  o3: 1,
  'o3-mini': 0.55,
  'o4-mini': 0.55,
  'gpt-5': 0.625,
  'gpt-5-mini': 0.125,
  'gpt-5-nano': 0.025,
  'text-embedding-3-small': 0.01,
  'text-embedding-3-large': 0.065,
  'text-embedding-ada-002': 0.05,
  'omni-moderation-latest': 0.1,
  'whisper-1': 15,
  'tts-1': 7.5,
  'tts-1-hd': 15,
  'dall-e-3': 20,
  'claude-3-5-haiku-20241022': 0.4,
  'claude-3-5-sonnet-20241022': 1.5,
  'claude-3-7-sonnet-20250219': 1.5,
  'claude-sonnet-4-20250514': 1.5,
  'claude-opus-4-20250514': 7.5,
  'claude-3-haiku-20240307': 0.125,
  'gemini-1.5-pro': 0.625,
  'gemini-1.5-flash': 0.0375,
  'gemini-2.0-flash': 0.05,
  'gemini-2.5-flash': 0.15,
  'gemini-2.5-pro': 0.625,
  'deepseek-chat': 0.135,
  'deepseek-reasoner': 0.275,
  'grok-3': 1.5,
  'grok-3-mini': 0.15,
  'mistral-large-latest': 1,
  'mistral-small-latest': 0.1,
  'moonshot-v1-8k': 0.6,
  'glm-4': 3.5714,
  'qwen-turbo': 0.0214,
  'qwen-plus': 0.0571,
  'qwen-max': 0.1714,
};

export const defaultCompletionRatio: Record<string, number> = {
  'gpt-4o': 4,
  'gpt-4o-2024-11-20': 4,
  'gpt-4o-mini': 4,
  'gpt-4.1': 4,
  'gpt-4.1-mini': 4,
  'gpt-4.1-nano': 4,
  'gpt-4-turbo': 3,
  'gpt-4': 2,
  'gpt-3.5-turbo': 3,
  'gpt-3.5-turbo-instruct': 1.3333,
  o1: 4,
  'o1-mini': 4,
  o3: 4,
  'o3-mini': 4,
  'o4-mini': 4,
  'gpt-5': 8,
  'gpt-5-mini': 8,
  'gpt-5-nano': 8,
  'claude-3-5-haiku-20241022': 5,
  'claude-3-5-sonnet-20241022': 5,
  'claude-3-7-sonnet-20250219': 5,
  'claude-sonnet-4-20250514': 5,
  'claude-opus-4-20250514': 5,
  'claude-3-haiku-20240307': 5,
  'gemini-1.5-pro': 4,
  'gemini-1.5-flash': 4,
  'gemini-2.0-flash': 4,
  'gemini-2.5-flash': 8.3333,
  'gemini-2.5-pro': 8,
  'deepseek-chat': 4,
  'deepseek-reasoner': 4,
  'grok-3': 5,
  'grok-3-mini': 3.3333,
  'mistral-large-latest': 3,
  'mistral-small-latest': 3,
};

/**
 * Cache ratios of the Claude models above, as Anthropic bills prompt caching (and new-api seeds
 * them): a cache read at 0.1x the input price, a 5-minute cache write at 1.25x. Anthropic channels
 * place cache breakpoints for OpenAI clients by default (shared/channel-cache.ts), so a fresh install
 * bills what it pays. Models without an entry bill cached tokens as plain input (ratio 1).
 */
const claudeModels = Object.keys(defaultModelRatio).filter((m) => m.startsWith('claude-'));
export const defaultCacheRatio: Record<string, number> = Object.fromEntries(claudeModels.map((m) => [m, 0.1]));
export const defaultCacheCreationRatio: Record<string, number> = Object.fromEntries(claudeModels.map((m) => [m, 1.25]));
