import { refusal } from '../../errors.ts';
import { type TextMessage, textMessages } from '../shared/text-answer.ts';

/*
 * Requests of Baidu's legacy ERNIE API (wenxinworkshop): the model's endpoint name from new-api's
 * table (a model it does not know is its lowercased name), and the chat body Baidu takes.
 */

/** Model -> endpoint under `chat/` or `embeddings/` (new-api's table). */
const ENDPOINTS: Record<string, string> = {
  'ERNIE-4.0': 'completions_pro',
  'ERNIE-Bot-4': 'completions_pro',
  'ERNIE-Bot': 'completions',
  'ERNIE-Bot-turbo': 'eb-instant',
  'ERNIE-Speed': 'ernie_speed',
  'ERNIE-4.0-8K': 'completions_pro',
  'ERNIE-3.5-8K': 'completions',
  'ERNIE-3.5-8K-0205': 'ernie-3.5-8k-0205',
  'ERNIE-3.5-8K-1222': 'ernie-3.5-8k-1222',
  'ERNIE-Bot-8K': 'ernie_bot_8k',
  'ERNIE-3.5-4K-0205': 'ernie-3.5-4k-0205',
  'ERNIE-Speed-8K': 'ernie_speed',
  'ERNIE-Speed-128K': 'ernie-speed-128k',
  'ERNIE-Lite-8K-0922': 'eb-instant',
  'ERNIE-Lite-8K-0308': 'ernie-lite-8k',
  'ERNIE-Tiny-8K': 'ernie-tiny-8k',
  'BLOOMZ-7B': 'bloomz_7b1',
  'Embedding-V1': 'embedding-v1',
  'bge-large-zh': 'bge_large_zh',
  'bge-large-en': 'bge_large_en',
  'tao-8k': 'tao_8k',
};

/** The call's URL without the access token: `chat/<endpoint>` or `embeddings/<endpoint>`. */
export function baiduUrl(baseUrl: string, model: string, embeddings: boolean): string {
  const endpoint = ENDPOINTS[model] ?? model.toLowerCase();
  return `${baseUrl}/rpc/2.0/ai_custom/v1/wenxinworkshop/${embeddings ? 'embeddings' : 'chat'}/${encodeURIComponent(endpoint)}`;
}

type Json = Record<string, unknown>;
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * Baidu wants user / assistant turns alternating: consecutive turns of one role are joined (a tool
 * result is a user turn). An opening assistant turn or a closing one is left as it is: Baidu
 * refuses it (336006) and the caller reads why.
 */
function joinTurns(turns: TextMessage[]): TextMessage[] {
  const out: TextMessage[] = [];
  for (const t of turns) {
    const last = out[out.length - 1];
    if (last?.role === t.role) last.content = `${last.content}\n\n${t.content}`;
    else out.push({ ...t });
  }
  return out;
}

/** The chat body for an internal chat body; system messages go into `system`. */
export function toBaiduChatBody(body: Json, stream: boolean): Json {
  const turns = textMessages(body.messages);
  const system = turns
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  const out: Json = { messages: joinTurns(turns.filter((m) => m.role !== 'system')), stream };
  if (system) out.system = system;
  // Baidu's ranges: temperature (0, 1], top_p [0, 1], penalty_score [1, 2], max_output_tokens >= 2.
  if (typeof body.temperature === 'number') out.temperature = clamp(body.temperature, 0.01, 1);
  if (typeof body.top_p === 'number') out.top_p = clamp(body.top_p, 0, 1);
  if (typeof body.frequency_penalty === 'number' && body.frequency_penalty > 0)
    out.penalty_score = clamp(1 + body.frequency_penalty / 2, 1, 2);
  const max = body.max_completion_tokens ?? body.max_tokens;
  if (typeof max === 'number') out.max_output_tokens = Math.max(2, max);
  const stop = typeof body.stop === 'string' ? [body.stop] : body.stop;
  if (Array.isArray(stop) && stop.length) out.stop = stop.slice(0, 4);
  if (typeof body.user === 'string' && body.user) out.user_id = body.user;
  return out;
}

/** The embeddings body: `input` is always a list of strings. */
export function toBaiduEmbeddingBody(body: Json): Json {
  const input = body.input;
  const texts = typeof input === 'string' ? [input] : input;
  if (!Array.isArray(texts) || !texts.every((s) => typeof s === 'string'))
    throw refusal(
      400,
      'Baidu embeddings take a string or an array of strings as input',
      '百度向量接口的 input 须为字符串或字符串数组',
    );
  return { input: texts, ...(typeof body.user === 'string' && body.user ? { user_id: body.user } : {}) };
}
