import type { ServerResponse } from 'node:http';
import { fakePromptTokens } from './behaviour.ts';

const TEXT = 'w0 w1 w2 w3 w4 ';

const send = (res: ServerResponse, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

/**
 * The newer OpenAI endpoints of the fake: /responses (JSON and the real SSE event
 * sequence), /moderations, /rerank (Jina/Cohere style with usage), /images/generations.
 * Returns false for any other path.
 */
export function handleExtra(path: string, body: Record<string, unknown>, model: string, res: ServerResponse): boolean {
  if (path === '/responses') {
    responses(res, body, model);
    return true;
  }
  if (path === '/moderations') {
    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    send(res, {
      id: 'modr-fake',
      model,
      results: inputs.map(() => ({
        flagged: false,
        categories: { violence: false },
        category_scores: { violence: 0.001 },
      })),
    });
    return true;
  }
  if (path === '/rerank') {
    const docs = Array.isArray(body.documents) ? body.documents : [];
    const tokens = Math.ceil((String(body.query ?? '') + docs.map(String).join('')).length / 4);
    send(res, {
      model,
      results: docs.map((d, index) => ({ index, relevance_score: 1 - index / 10, document: { text: String(d) } })),
      usage: { total_tokens: tokens },
    });
    return true;
  }
  if (path === '/audio/speech') {
    const audio = Buffer.from(`ID3fake-audio:${String(body.input ?? '')}`);
    res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': audio.length });
    res.end(audio);
    return true;
  }
  // Multipart uploads (the fake does not parse them): fixed answers in the real shapes.
  if (path === '/audio/transcriptions' || path === '/audio/translations') {
    send(res, { text: 'hello from the audio file' });
    return true;
  }
  if (path === '/images/edits') {
    send(res, { created: Math.floor(Date.now() / 1000), data: [{ b64_json: 'aW1n' }] });
    return true;
  }
  if (path === '/images/generations') {
    const n = Number(body.n ?? 1) || 1;
    send(res, {
      created: Math.floor(Date.now() / 1000),
      data: Array.from({ length: n }, (_, i) => ({
        url: `https://fake.example/img-${i}.png`,
        revised_prompt: String(body.prompt ?? ''),
      })),
    });
    return true;
  }
  return false;
}

function responses(res: ServerResponse, body: Record<string, unknown>, model: string) {
  const input = fakePromptTokens({
    input: typeof body.input === 'string' ? body.input : JSON.stringify(body.input ?? ''),
  });
  const usage = {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + 5,
  };
  const item = {
    id: 'msg_fake',
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text: TEXT, annotations: [] }],
  };
  const base = {
    id: 'resp_fake',
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model,
    output: [] as unknown[],
    status: 'in_progress',
    usage: null as unknown,
  };
  if (body.stream !== true) return send(res, { ...base, status: 'completed', output: [item], usage });
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let seq = 0;
  const ev = (type: string, data: object) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  ev('response.created', { response: base });
  ev('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } });
  ev('response.content_part.added', {
    item_id: 'msg_fake',
    output_index: 0,
    content_index: 0,
    part: { type: 'output_text', text: '', annotations: [] },
  });
  for (const w of TEXT.match(/\S+ /g) ?? [])
    ev('response.output_text.delta', { item_id: 'msg_fake', output_index: 0, content_index: 0, delta: w });
  ev('response.output_text.done', { item_id: 'msg_fake', output_index: 0, content_index: 0, text: TEXT });
  ev('response.content_part.done', { item_id: 'msg_fake', output_index: 0, content_index: 0, part: item.content[0] });
  ev('response.output_item.done', { output_index: 0, item });
  ev('response.completed', { response: { ...base, status: 'completed', output: [item], usage } });
  res.end();
}
