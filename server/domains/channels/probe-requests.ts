import { ChannelType, TASK_CHANNEL_TYPES } from '../../../shared/channel-types.ts';
import type { ChannelRow } from '../../db/types.ts';
import { badRequest } from '../../errors.ts';
import { baseUrlOf, firstKeyOf } from './probe-http.ts';

/*
 * The smallest real request per protocol for a channel test (relay.md §4): one
 * user message and one output token, or one embedding. OpenAI-compatible types
 * share one shape; Azure, Anthropic and Gemini speak their own.
 */

export interface ProbeRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Embedding models answer only the embeddings endpoint. */
export const isEmbeddingModel = (model: string) => /embed|bge-|m3e/i.test(model);

const AZURE_DEFAULT_API_VERSION = '2024-10-21';
const ANTHROPIC_VERSION = '2023-06-01';
const UNTESTABLE = new Set<number>([...TASK_CHANNEL_TYPES, 0, 33, ChannelType.VertexAI]);

const chatBody = (model: string) => ({
  model,
  messages: [{ role: 'user', content: 'hi' }],
  max_tokens: 1,
  stream: false,
});

export function probeRequestFor(channel: ChannelRow, model: string): ProbeRequest {
  if (UNTESTABLE.has(channel.type)) throw badRequest('该渠道类型暂不支持测试');
  const base = baseUrlOf(channel);
  const key = firstKeyOf(channel.key);
  const embedding = isEmbeddingModel(model);

  if (channel.type === ChannelType.Azure) {
    const version = channel.other.trim() || AZURE_DEFAULT_API_VERSION;
    const task = embedding ? 'embeddings' : 'chat/completions';
    return {
      url: `${base}/openai/deployments/${encodeURIComponent(model)}/${task}?api-version=${encodeURIComponent(version)}`,
      headers: { 'api-key': key },
      body: embedding ? { input: 'hi' } : chatBody(model),
    };
  }
  if (channel.type === ChannelType.Anthropic)
    return {
      url: `${base}/v1/messages`,
      headers: { 'x-api-key': key, 'anthropic-version': ANTHROPIC_VERSION },
      body: { model, max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] },
    };
  if (channel.type === ChannelType.Gemini)
    return {
      url: `${base}/v1beta/models/${encodeURIComponent(model)}:${embedding ? 'embedContent' : 'generateContent'}`,
      headers: { 'x-goog-api-key': key },
      body: embedding
        ? { content: { parts: [{ text: 'hi' }] } }
        : { contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { maxOutputTokens: 1 } },
    };

  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (channel.openai_organization) headers['openai-organization'] = channel.openai_organization;
  return {
    url: `${base}/v1/${embedding ? 'embeddings' : 'chat/completions'}`,
    headers,
    body: embedding ? { model, input: 'hi' } : chatBody(model),
  };
}
