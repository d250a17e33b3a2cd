import { parseOpenAIUsage } from '../openai/usage.ts';
import type { Usage } from '../types.ts';

/*
 * OpenAI's embeddings answer for providers with their own embedding format. OpenAI's SDKs ask for
 * `encoding_format: "base64"` unless told otherwise and decode the vectors from little-endian
 * float32 bytes, so a provider's floats are encoded that way when the client asked for it.
 */

const base64Floats = (v: number[]) => Buffer.from(new Float32Array(v).buffer).toString('base64');

export function openAIEmbeddings(
  vectors: number[][],
  model: string,
  promptTokens: number,
  encodingFormat: unknown,
): { body: string; usage?: Usage } {
  const usage = { prompt_tokens: promptTokens, total_tokens: promptTokens };
  const data = vectors.map((v, index) => ({
    object: 'embedding',
    index,
    embedding: encodingFormat === 'base64' ? base64Floats(v) : v,
  }));
  return { body: JSON.stringify({ object: 'list', data, model, usage }), usage: parseOpenAIUsage(usage) };
}

/**
 * An OpenAI-shaped embeddings answer whose vectors came as float arrays although the client asked
 * for base64 (OpenAI-compatible providers that ignore encoding_format): the vectors encoded as the
 * client expects; the text unchanged otherwise.
 */
export function embeddingsInFormat(text: string, encodingFormat: unknown): string {
  if (encodingFormat !== 'base64') return text;
  try {
    const answer = JSON.parse(text) as { data?: { embedding?: unknown }[] };
    if (!answer.data?.some((d) => Array.isArray(d.embedding))) return text;
    for (const d of answer.data) if (Array.isArray(d.embedding)) d.embedding = base64Floats(d.embedding as number[]);
    return JSON.stringify(answer);
  } catch {
    return text;
  }
}
