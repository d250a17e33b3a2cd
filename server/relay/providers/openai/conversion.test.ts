import { describe, expect, it } from 'vitest';
import { noCarry } from '../../canonical/carry.ts';
import type { CanonicalRequest } from '../../canonical/types.ts';
import { RelayError } from '../../errors.ts';
import type { ChannelConfig } from '../../channel-config.ts';
import type { AttemptContext, NativeProtocol } from '../types.ts';
import { azureAdapter } from '../azure/adapter.ts';
import { openAIAdapter } from './adapter.ts';
import { nearestEffort, reasoningModelOf } from './reasoning-models.ts';
import { renderChatBody } from './request.ts';

/*
 * The internal form rendered for OpenAI-compatible upstreams (docs/conversion.md § OpenAI), checked
 * on the request the upstream would receive. The SDK-level tests are openai/openai-conversion.test.ts.
 */

function ctxOf(type: number, upstreamModel: string, clientProtocol?: NativeProtocol): AttemptContext {
  const channel = { id: 1, type, baseUrl: 'http://up.test', setting: {}, other: '' } as unknown as ChannelConfig;
  return {
    mode: 'chat',
    channel,
    key: 'k',
    upstreamModel,
    stream: false,
    options: (() => undefined) as never,
    clientProtocol,
    carry: noCarry,
  };
}

/** The JSON body the upstream receives. */
const upstreamBody = (ctx: AttemptContext, body: Record<string, unknown>) => {
  const req = openAIAdapter.buildRequest(ctx, body) as { body: string };
  return JSON.parse(req.body) as Record<string, unknown>;
};

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

describe('a plain OpenAI body stays a pass-through', () => {
  it('is returned as the same object, and its upstream bytes are the ones it had before', () => {
    const body = {
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'a' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hi' },
            { type: 'image_url', image_url: { url: PNG } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'ok' }] },
      ],
      temperature: 0.2,
      max_tokens: 10,
      vendor_extra: { x: 1 },
    };
    for (const type of [1, 3, 20, 43]) {
      const ctx = ctxOf(type, 'gpt-4o');
      expect(renderChatBody(ctx, body)).toBe(body);
      const req = openAIAdapter.buildRequest(ctx, body) as { body: string };
      expect(req.body).toBe(JSON.stringify({ ...body, model: 'gpt-4o' }));
    }
  });

  it("keeps a vendor's own fields and reasoning_content for vendors (DeepSeek wants it back in a tool loop)", () => {
    const body = {
      model: 'deepseek-chat',
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: null,
          reasoning_content: 'thought',
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: 'r' },
      ],
      top_k: 5,
      thinking: { type: 'enabled' },
    };
    expect(renderChatBody(ctxOf(43, 'deepseek-chat'), body)).toBe(body);
    // The same on an OpenAI-type channel pointed at a vendor's own model.
    expect(renderChatBody(ctxOf(1, 'deepseek-chat'), body)).toBe(body);
  });
});

describe('extensions never reach an OpenAI-compatible upstream as they are', () => {
  const claudeCode = (): CanonicalRequest => ({
    model: 'claude-sonnet',
    messages: [
      {
        role: 'system',
        content: [
          { type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } },
          { type: 'text', text: 'Be careful.', cache_control: { type: 'ephemeral' } },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'take a screenshot', cache_control: { type: 'ephemeral' } }] },
      {
        role: 'assistant',
        content: null,
        thinking_blocks: [{ type: 'thinking', thinking: 'I will call it', signature: 'sig' }],
        tool_calls: [
          {
            id: 'toolu_1',
            type: 'function',
            function: { name: 'screenshot', arguments: '{}' },
            thought_signature: 'g',
          },
          { id: 'toolu_2', type: 'function', function: { name: 'read', arguments: '{}' } },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'toolu_1',
        content: [
          { type: 'text', text: 'Screenshot taken' },
          { type: 'image_url', image_url: { url: PNG } },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_2', content: 'no such file', is_error: true },
      { role: 'user', content: 'what do you see?' },
    ],
    max_tokens: 32000,
    temperature: 1,
    reasoning: { budget_tokens: 31999 },
    tools: [{ type: 'function', function: { name: 'screenshot', parameters: { type: 'object' } } }],
    stream: false,
  });

  it('on OpenAI with o3: the request a strict upstream accepts', () => {
    const out = upstreamBody(ctxOf(1, 'o3', 'anthropic'), claudeCode());
    expect(out).not.toHaveProperty('max_tokens');
    expect(out.max_completion_tokens).toBe(32000);
    expect(out.temperature).toBe(1); // the only value o3 takes
    expect(out).not.toHaveProperty('reasoning');
    expect(out.reasoning_effort).toBe('high'); // 31,999 tokens: high (canonical/reasoning.ts)
    expect(out.messages).toEqual([
      { role: 'system', content: 'You are Claude Code.\n\nBe careful.' },
      { role: 'user', content: 'take a screenshot' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'toolu_1', type: 'function', function: { name: 'screenshot', arguments: '{}' } },
          { id: 'toolu_2', type: 'function', function: { name: 'read', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'Screenshot taken\n(image attached below)' },
      { role: 'tool', tool_call_id: 'toolu_2', content: 'Error: no such file' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Attached by the tool result toolu_1:' },
          { type: 'image_url', image_url: { url: PNG } },
        ],
      },
      { role: 'user', content: 'what do you see?' },
    ]);
  });

  it('on a vendor (DeepSeek): the thinking text goes back as reasoning_content of the tool-call turn', () => {
    const out = upstreamBody(ctxOf(43, 'deepseek-reasoner', 'anthropic'), claudeCode());
    const assistant = (out.messages as Record<string, unknown>[])[2];
    expect(assistant.reasoning_content).toBe('I will call it');
    expect(assistant).not.toHaveProperty('thinking_blocks');
    expect(out.reasoning_effort).toBe('high');
    expect(out.max_tokens).toBe(32000);
    expect(JSON.stringify(out)).not.toMatch(/cache_control|thought_signature|is_error|thinking_blocks|budget_tokens/);
  });

  it("on a vendor, a converted turn without tool calls leaves its reasoning out (DeepSeek ignores it there); an OpenAI client's is kept", () => {
    const body = {
      model: 'x',
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a', reasoning_content: 'why' },
        { role: 'user', content: 'again' },
      ],
    };
    expect((upstreamBody(ctxOf(43, 'deepseek-chat', 'anthropic'), body).messages as unknown[])[1]).toEqual({
      role: 'assistant',
      content: 'a',
    });
    expect(renderChatBody(ctxOf(43, 'deepseek-chat'), body)).toBe(body);
  });

  it('on OpenAI itself reasoning_content is dropped; a thinking-only turn keeps an empty content', () => {
    const body = {
      model: 'x',
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null, reasoning_content: 'hmm' },
        { role: 'user', content: 'again' },
      ],
    };
    const out = upstreamBody(ctxOf(1, 'gpt-4.1'), body);
    expect((out.messages as unknown[])[1]).toEqual({ role: 'assistant', content: '' });
  });

  it('images of several tool results go into one user message after the run, in order', () => {
    const body = {
      model: 'x',
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: null,
          tool_calls: ['a', 'b'].map((id) => ({ id, type: 'function', function: { name: 'f', arguments: '{}' } })),
        },
        { role: 'tool', tool_call_id: 'a', content: [{ type: 'image_url', image_url: { url: `${PNG}A` } }] },
        {
          role: 'tool',
          tool_call_id: 'b',
          content: [
            { type: 'image_url', image_url: { url: `${PNG}B` } },
            { type: 'image_url', image_url: { url: `${PNG}C` } },
          ],
        },
      ],
    };
    const msgs = upstreamBody(ctxOf(1, 'gpt-4o'), body).messages as { role: string; content: unknown }[];
    expect(msgs.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'a', content: '(image attached below)' },
      { role: 'tool', tool_call_id: 'b', content: '(2 images attached below)' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Attached by the tool result a:' },
          { type: 'image_url', image_url: { url: `${PNG}A` } },
          { type: 'text', text: 'Attached by the tool result b:' },
          { type: 'image_url', image_url: { url: `${PNG}B` } },
          { type: 'image_url', image_url: { url: `${PNG}C` } },
        ],
      },
    ]);
  });

  it('top_k: dropped for OpenAI and Azure, kept for vendors that take it', () => {
    const body = { model: 'x', messages: [{ role: 'user', content: 'q' }], top_k: 40 };
    expect(upstreamBody(ctxOf(1, 'gpt-4o'), body)).not.toHaveProperty('top_k');
    expect(upstreamBody(ctxOf(3, 'gpt-4o'), body)).not.toHaveProperty('top_k');
    expect(upstreamBody(ctxOf(8, 'llama-3'), body).top_k).toBe(40);
  });

  it('reasoning: reasoning_effort for vendors and OpenAI reasoning models; OpenRouter gets its own shape', () => {
    const body = (reasoning: object) => ({ model: 'x', messages: [{ role: 'user', content: 'q' }], reasoning });
    expect(upstreamBody(ctxOf(43, 'deepseek-chat'), body({ budget_tokens: 5000 })).reasoning_effort).toBe('medium');
    // DeepSeek's chat API turns thinking off with its own switch (it knows no effort "none").
    const off = upstreamBody(ctxOf(43, 'deepseek-chat'), body({ budget_tokens: 0 }));
    expect(off.thinking).toEqual({ type: 'disabled' });
    expect(off).not.toHaveProperty('reasoning_effort');
    // GPT-4o does not reason, and OpenAI refuses reasoning_effort for it.
    const gpt4o = upstreamBody(ctxOf(1, 'gpt-4o'), body({ effort: 'high' }));
    expect(gpt4o).not.toHaveProperty('reasoning_effort');
    expect(gpt4o).not.toHaveProperty('reasoning');
    expect(
      upstreamBody(ctxOf(20, 'anthropic/claude-sonnet-4'), body({ budget_tokens: 5000, include: false })).reasoning,
    ).toEqual({
      max_tokens: 5000,
      exclude: true,
    });
    expect(upstreamBody(ctxOf(20, 'x'), body({ effort: 'none' })).reasoning).toEqual({ effort: 'none' });
    expect(upstreamBody(ctxOf(20, 'x'), body({ budget_tokens: 0 })).reasoning).toEqual({ enabled: false });
    // OpenRouter's own shape from an OpenAI client is left as it came.
    const own = body({ max_tokens: 2000, exclude: false });
    expect(renderChatBody(ctxOf(20, 'x'), own)).toBe(own);
  });

  it('documents: kept (with a file name) for OpenAI, text documents become text elsewhere, PDFs are refused', () => {
    const doc = (file_data: string) => ({
      model: 'x',
      messages: [
        { role: 'user', content: [{ type: 'file', file: { file_data }, cache_control: { type: 'ephemeral' } }] },
      ],
    });
    const pdf = doc('data:application/pdf;base64,JVBERi0=');
    expect((upstreamBody(ctxOf(1, 'gpt-4o'), pdf).messages as { content: unknown }[])[0].content).toEqual([
      { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'document.pdf' } },
    ]);
    const text = doc(`data:text/plain;base64,${Buffer.from('hello doc').toString('base64')}`);
    expect((upstreamBody(ctxOf(43, 'deepseek-chat'), text).messages as { content: unknown }[])[0].content).toEqual([
      { type: 'text', text: 'hello doc' },
    ]);
    let err: unknown;
    try {
      upstreamBody(ctxOf(43, 'deepseek-chat'), pdf);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RelayError);
    expect((err as RelayError).status).toBe(400);
    expect((err as RelayError).message).toMatch(/application\/pdf.*takes no files/);
    expect((err as RelayError).zh).toBeTruthy();
  });
});

describe('OpenAI reasoning models', () => {
  const body = {
    model: 'x',
    messages: [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'q' },
    ],
    max_tokens: 100,
    temperature: 0.7,
    top_p: 1,
    presence_penalty: 0.5,
    frequency_penalty: 0,
    logprobs: true,
    top_logprobs: 2,
    logit_bias: { '1': 2 },
    stop: ['x'],
    parallel_tool_calls: false,
  };

  it('o3: max_completion_tokens, sampling at the defaults only, no stop, no parallel_tool_calls', () => {
    const out = upstreamBody(ctxOf(1, 'o3-2025-04-16'), body);
    expect(out).toEqual({
      model: 'o3-2025-04-16',
      messages: body.messages,
      max_completion_tokens: 100,
      top_p: 1,
      frequency_penalty: 0,
    });
  });

  it('o3-mini keeps stop; an explicit max_completion_tokens wins over max_tokens', () => {
    const out = upstreamBody(ctxOf(1, 'o3-mini'), { ...body, max_completion_tokens: 50 });
    expect(out.stop).toEqual(['x']);
    expect(out.max_completion_tokens).toBe(50);
    expect(out).not.toHaveProperty('max_tokens');
  });

  it('gpt-5.1 with reasoning off takes temperature and logprobs again; gpt-5-chat is not a reasoning model', () => {
    const off = upstreamBody(ctxOf(1, 'gpt-5.1'), { ...body, reasoning_effort: 'none' });
    expect(off).toMatchObject({ temperature: 0.7, logprobs: true, top_logprobs: 2, reasoning_effort: 'none' });
    expect(off).not.toHaveProperty('presence_penalty');
    expect(off).not.toHaveProperty('stop');
    const on = upstreamBody(ctxOf(1, 'gpt-5.1'), { ...body, reasoning_effort: 'high' });
    expect(on).not.toHaveProperty('temperature');
    expect(upstreamBody(ctxOf(1, 'gpt-5-chat-latest'), body)).toEqual({ ...body, model: 'gpt-5-chat-latest' });
  });

  it('efforts the model does not take become the nearest it does', () => {
    const effort = (model: string, e: string) =>
      upstreamBody(ctxOf(1, model), { ...body, reasoning_effort: e }).reasoning_effort;
    expect(effort('o3', 'minimal')).toBe('low');
    expect(effort('o4-mini', 'none')).toBe('low');
    expect(effort('o3', 'xhigh')).toBe('high');
    expect(effort('gpt-5', 'none')).toBe('minimal');
    expect(effort('gpt-5.1', 'minimal')).toBe('low');
    // gpt-5-pro answers on the Responses API only (responses-bridge/), with the same table.
    expect(nearestEffort('low', reasoningModelOf('gpt-5-pro')!.efforts)).toBe('high');
    expect(effort('gpt-5.2', 'xhigh')).toBe('xhigh');
    expect(nearestEffort('medium', ['low', 'high'])).toBe('high');
  });

  it('the table: which names are reasoning models (with a vendor prefix too)', () => {
    for (const m of [
      'o1',
      'o1-2024-12-17',
      'o3',
      'o3-mini',
      'o4-mini',
      'gpt-5',
      'gpt-5-mini',
      'gpt-5.1',
      'gpt-5.2-pro',
      'codex-mini-latest',
      'openai/o3',
      'openai/gpt-5',
    ])
      expect(reasoningModelOf(m), m).toBeDefined();
    for (const m of [
      'gpt-4o',
      'gpt-4.1',
      'gpt-5-chat-latest',
      'gpt-5.1-chat-latest',
      'omni-moderation-latest',
      'deepseek-reasoner',
      'qwen3',
    ])
      expect(reasoningModelOf(m), m).toBeUndefined();
  });

  it('applies on an OpenRouter channel when the model is an OpenAI reasoning model, and on Azure', async () => {
    const or = upstreamBody(ctxOf(20, 'openai/o3'), body);
    expect(or).toHaveProperty('max_completion_tokens', 100);
    expect(or).not.toHaveProperty('temperature');
    const az = await azureAdapter.buildRequest(ctxOf(3, 'o4-mini'), body);
    expect(az.url).toContain('/openai/deployments/o4-mini/chat/completions');
    expect(JSON.parse(az.body as string)).toMatchObject({ max_completion_tokens: 100 });
    expect(JSON.parse(az.body as string)).not.toHaveProperty('max_tokens');
  });

  it('o1-mini: system becomes user, and it takes no reasoning_effort', () => {
    const out = upstreamBody(ctxOf(1, 'o1-mini'), { ...body, reasoning_effort: 'high' });
    expect(out.messages).toEqual([
      { role: 'user', content: 'sys' },
      { role: 'user', content: 'q' },
    ]);
    expect(out).not.toHaveProperty('reasoning_effort');
  });
});
