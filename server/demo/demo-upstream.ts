import type { FastifyInstance, FastifyReply } from 'fastify';
import { nowSeconds } from '../db/time.ts';

/*
 * A built-in stand-in for an upstream provider, so a new operator can try the whole gateway (channel,
 * token, relay, billing, logs, playground) without a provider key (issue 22). It speaks OpenAI's chat
 * wire format under /demo-upstream/v1 and answers with a made-up text that says what it is. Served only
 * when DEMO_CHANNEL=true; the channels page then offers to add a channel pointing at it.
 */

export const DEMO_PREFIX = '/demo-upstream';
/** The model the demo channel serves: the playground's default, priced by the default ratios. */
export const DEMO_MODEL = 'gpt-4o-mini';

const CJK = /[\u3400-\u9fff]/;

interface ChatBody {
  model?: unknown;
  stream?: unknown;
  messages?: { role?: unknown; content?: unknown }[];
}

/** The last user message as text (string content or the text parts of a parts array). */
function lastUserText(body: ChatBody): string {
  const last = [...(Array.isArray(body.messages) ? body.messages : [])].reverse().find((m) => m?.role === 'user');
  const c = last?.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c))
    return c
      .map((p: unknown) => (typeof p === 'object' && p && 'text' in p ? String((p as { text: unknown }).text) : ''))
      .join(' ');
  return '';
}

/** The demo's answer: what it is, and the question echoed back (in Chinese when asked in Chinese). */
export function demoReply(question: string): string {
  const q = question.trim().slice(0, 200) || '…';
  return CJK.test(q)
    ? `这是 Switchyard 的演示渠道，回答由网关内置的假上游生成，并未调用任何模型。你说的是：「${q}」。添加一个真实渠道即可与模型对话。`
    : `This is Switchyard's demo channel: the gateway's built-in fake upstream wrote this answer, no model was called. You said: "${q}". Add a real channel to talk to a model.`;
}

/** Rough token counts (about four characters a token) so that billing and logs have numbers to show. */
const tokensOf = (text: string) => Math.max(1, Math.ceil(text.length / 4));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function stream(reply: FastifyReply, model: string, text: string, promptTokens: number): Promise<void> {
  const id = `chatcmpl-demo${Date.now()}`;
  const created = nowSeconds();
  const raw = reply.raw;
  reply.hijack();
  raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const send = (delta: object, finish: string | null = null, usage?: object) =>
    raw.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`,
    );
  send({ role: 'assistant', content: '' });
  // Word by word, a little apart, so the playground shows a stream as it would with a real model.
  for (const piece of text.match(/\S+\s*|\s+/g) ?? [text]) {
    if (raw.destroyed) return;
    send({ content: piece });
    await sleep(15);
  }
  send({}, 'stop');
  const completion = tokensOf(text);
  send({}, null, {
    prompt_tokens: promptTokens,
    completion_tokens: completion,
    total_tokens: promptTokens + completion,
  });
  raw.end('data: [DONE]\n\n');
}

export function registerDemoUpstream(app: FastifyInstance): void {
  app.get(`${DEMO_PREFIX}/v1/models`, async () => ({
    object: 'list',
    data: [{ id: DEMO_MODEL, object: 'model', created: 0, owned_by: 'switchyard-demo' }],
  }));

  app.post(`${DEMO_PREFIX}/v1/chat/completions`, async (req, reply) => {
    const body = (req.body ?? {}) as ChatBody;
    const model = typeof body.model === 'string' && body.model ? body.model : DEMO_MODEL;
    const question = lastUserText(body);
    const text = demoReply(question);
    const promptTokens = tokensOf(JSON.stringify(body.messages ?? []));
    if (body.stream === true) return stream(reply, model, text, promptTokens);
    const completion = tokensOf(text);
    return {
      id: `chatcmpl-demo${Date.now()}`,
      object: 'chat.completion',
      created: nowSeconds(),
      model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: promptTokens, completion_tokens: completion, total_tokens: promptTokens + completion },
    };
  });
}
