import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentDialect, type AgentUpstream, startAgentUpstream } from './server.ts';
import { codeWord, firstAnswer, firstPrompt, makePng, notesText, secondText } from './task.ts';

/*
 * Each scripted upstream on loopback, driven the way a client drives it: the whole task (three tool round
 * trips, the picture coming back in the dialect's own form) over plain HTTP in the real wire format, the
 * thinking sent back as it came (signatures included), and what the strict validator refuses refused.
 */
type Json = Record<string, unknown>;
const DIR = '/w';
const TASK = { first: 'ALPHA-0d0e0f', second: 'BRAVO-2d2e2f', width: 5, height: 4 };
const PNG64 = makePng(TASK.width, TASK.height).toString('base64');
const FILES: Record<string, string> = { '/w/notes.txt': notesText(DIR, TASK), '/w/second.txt': secondText(DIR, TASK) };
const READ_SCHEMA = { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] };

const fakes: Partial<Record<AgentDialect, AgentUpstream>> = {};
beforeAll(async () => {
  for (const d of ['openai-chat-only', 'responses-only', 'anthropic', 'gemini'] as const)
    fakes[d] = await startAgentUpstream(d);
});
afterAll(async () => {
  await Promise.all(Object.values(fakes).map((f) => f.close()));
});

async function post(d: AgentDialect, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${fakes[d]!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

const json = async (p: Promise<{ status: number; text: string }>) => {
  const r = await p;
  expect(r.status, r.text).toBe(200);
  return JSON.parse(r.text) as Json;
};

/** The file a call asks for. */
const pathOf = (args: Json) => String(Object.values(args)[0]);

describe('scripted agent upstreams', () => {
  it('Anthropic: signed thinking before each tool_use, the picture as an image block of the tool_result', async () => {
    const messages: Json[] = [{ role: 'user', content: firstPrompt(DIR) }];
    const headers = { 'anthropic-version': '2023-06-01' };
    const body = () => ({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [{ name: 'Read', input_schema: READ_SCHEMA }],
      messages,
    });
    for (let n = 0; n < 3; n++) {
      const m = await json(post('anthropic', '/v1/messages', body(), headers));
      const [thinking, use] = m.content as Json[];
      expect(thinking.type).toBe('thinking');
      messages.push({ role: 'assistant', content: m.content });
      const path = pathOf(use.input as Json);
      const content = path.endsWith('.png')
        ? [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG64 } }]
        : FILES[path];
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content }] });
    }
    const answer = await json(post('anthropic', '/v1/messages', body(), headers));
    expect((answer.content as Json[]).at(-1)).toEqual({ type: 'text', text: firstAnswer(codeWord(TASK)) });
    // A thinking block edited on its way back is refused, as the real API refuses it.
    const forged = JSON.parse(JSON.stringify(messages)) as Json[];
    ((forged[1].content as Json[])[0] as Json).thinking = 'edited';
    const refused = await post('anthropic', '/v1/messages', { ...body(), messages: forged }, headers);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Invalid `signature`');
    // Streamed: the same answer in text_delta events, the call's input in input_json_delta pieces.
    const sse = await post('anthropic', '/v1/messages', { ...body(), stream: true }, headers);
    const text = [...sse.text.matchAll(/"text_delta","text":"([^"]*)"/g)].map((x) => x[1]).join('');
    expect(text).toBe(firstAnswer(codeWord(TASK)));
    expect(sse.text).toContain('event: message_stop');
  });

  it('chat-only vendor: reasoning_content and tool calls; the picture in a user message after the tool message', async () => {
    expect((await post('openai-chat-only', '/v1/responses', { model: 'x', input: 'hi' })).status).toBe(404);
    const messages: Json[] = [{ role: 'user', content: firstPrompt(DIR) }];
    const body = () => ({
      model: 'deepseek-reasoner',
      messages,
      tools: [{ type: 'function', function: { name: 'read_file', parameters: READ_SCHEMA } }],
    });
    for (let n = 0; n < 3; n++) {
      const c = await json(post('openai-chat-only', '/v1/chat/completions', body()));
      const msg = (c.choices as Json[])[0].message as Json;
      expect(msg.reasoning_content).toEqual(expect.any(String));
      const call = (msg.tool_calls as Json[])[0];
      messages.push({ role: 'assistant', content: null, tool_calls: msg.tool_calls });
      const path = pathOf(JSON.parse(String((call.function as Json).arguments)) as Json);
      messages.push({ role: 'tool', tool_call_id: call.id, content: FILES[path] ?? 'Image attached below.' });
      if (!FILES[path])
        messages.push({
          role: 'user',
          content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG64}` } }],
        });
    }
    const sse = await post('openai-chat-only', '/v1/chat/completions', { ...body(), stream: true });
    const deltas = [...sse.text.matchAll(/"content":"([^"]*)"/g)].map((x) => x[1]).join('');
    expect(deltas).toBe(firstAnswer(codeWord(TASK)));
    expect(sse.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('Responses-only: chat completions refused as OpenAI refuses them; function_call_output carries the picture', async () => {
    const chat = await post('responses-only', '/v1/chat/completions', { model: 'gpt-5-codex', messages: [] });
    expect(chat.status).toBe(404);
    expect(chat.text).toContain('only supported in v1/responses');
    const input: Json[] = [{ role: 'user', content: firstPrompt(DIR) }];
    const body = () => ({
      model: 'gpt-5-codex',
      input,
      store: false,
      include: ['reasoning.encrypted_content'],
      reasoning: { summary: 'auto' },
      tools: [
        {
          type: 'function',
          name: 'exec_command',
          parameters: { type: 'object', properties: { cmd: { type: 'string' } } },
        },
        {
          type: 'function',
          name: 'view_image',
          parameters: { type: 'object', properties: { path: { type: 'string' } } },
        },
      ],
    });
    for (let n = 0; n < 3; n++) {
      const r = await json(post('responses-only', '/v1/responses', body()));
      const [reasoning, call] = r.output as Json[];
      expect(reasoning).toMatchObject({ type: 'reasoning', encrypted_content: expect.any(String) });
      input.push(reasoning, call);
      const args = JSON.parse(String(call.arguments)) as Json;
      const output =
        call.name === 'view_image'
          ? [{ type: 'input_image', image_url: `data:image/png;base64,${PNG64}` }]
          : FILES[String(args.cmd).replace(/^cat /, '')];
      input.push({ type: 'function_call_output', call_id: call.call_id, output });
    }
    const sse = await post('responses-only', '/v1/responses', { ...body(), stream: true });
    expect(sse.text).toContain(`"text":"${firstAnswer(codeWord(TASK))}"`);
    expect(sse.text).toContain('event: response.completed');
  });

  it('Gemini: thought parts, function calls signed; a call sent back without its signature is refused', async () => {
    const contents: Json[] = [{ role: 'user', parts: [{ text: firstPrompt(DIR) }] }];
    const path = '/v1beta/models/gemini-3-pro-preview:generateContent';
    const body = () => ({
      contents,
      tools: [
        {
          functionDeclarations: [
            { name: 'read_file', parameters: { type: 'OBJECT', properties: { file_path: { type: 'STRING' } } } },
          ],
        },
      ],
      generationConfig: { thinkingConfig: { includeThoughts: true } },
    });
    for (let n = 0; n < 3; n++) {
      const r = await json(post('gemini', path, body()));
      const parts = ((r.candidates as Json[])[0].content as Json).parts as Json[];
      expect(parts[0].thought).toBe(true);
      const fc = parts[1].functionCall as Json;
      contents.push({ role: 'model', parts });
      const file = pathOf(fc.args as Json);
      contents.push({
        role: 'user',
        parts: FILES[file]
          ? [{ functionResponse: { name: fc.name, response: { output: FILES[file] } } }]
          : [
              { functionResponse: { name: fc.name, response: { output: 'Binary content provided.' } } },
              { inlineData: { mimeType: 'image/png', data: PNG64 } },
            ],
      });
    }
    const answer = await json(post('gemini', path, body()));
    const parts = ((answer.candidates as Json[])[0].content as Json).parts as Json[];
    expect(parts.at(-1)).toEqual({ text: firstAnswer(codeWord(TASK)) });
    const unsigned = JSON.parse(JSON.stringify(contents)) as Json[];
    delete ((unsigned[1].parts as Json[])[1] as Json).thoughtSignature;
    const refused = await post('gemini', path, { ...body(), contents: unsigned });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('missing a thought_signature');
    const sse = await post('gemini', path.replace(':generateContent', ':streamGenerateContent?alt=sse'), body());
    expect(sse.text.split('\r\n\r\n').filter((f) => f.startsWith('data: '))).toHaveLength(2);
  });

  it('records what the brain saw on each turn', () => {
    const turns = fakes.anthropic!.turns.filter((t) => !t.refused);
    expect(turns.slice(0, 4).map((t) => [t.results, t.images, t.move.split(':')[0]])).toEqual([
      [0, 0, 'call Read'],
      [1, 0, 'call Read'],
      [2, 0, 'call Read'],
      [3, 1, 'CODE WORD'],
    ]);
  });
});
