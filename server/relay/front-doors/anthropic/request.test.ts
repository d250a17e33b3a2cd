import { describe, expect, it } from 'vitest';
import {
  anthropicBody,
  anthropicToOpenAI,
  forcedServerTool,
  GATEWAY_SIGNATURE,
  serverToolsOf,
  withoutGatewayThinking,
} from './request.ts';

/** What Claude Code sends, in small: system blocks with cache_control, thinking, a tool loop, a screenshot. */
const claudeCode = anthropicBody.parse({
  model: 'claude-sonnet-4-5',
  max_tokens: 32000,
  top_k: 40,
  metadata: { user_id: 'user_abc_session_1' },
  thinking: { type: 'enabled', budget_tokens: 10000 },
  service_tier: 'auto',
  system: [
    { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
    { type: 'text', text: 'Project instructions.', cache_control: { type: 'ephemeral' } },
  ],
  tools: [
    { name: 'Read', description: 'Read a file', input_schema: { type: 'object', properties: {} } },
    { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
  ],
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: '<system-reminder>context</system-reminder>' },
        { type: 'text', text: 'look at the screen', cache_control: { type: 'ephemeral' } },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'notes' }, title: 'n.txt' },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should look.', signature: 'EqSig==' },
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a.png' } },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          is_error: true,
          content: [
            { type: 'text', text: 'partial' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
          ],
        },
      ],
    },
  ],
});

describe('Anthropic body -> canonical', () => {
  const c = anthropicToOpenAI(claudeCode) as { messages: Record<string, unknown>[] } & Record<string, unknown>;

  it('system blocks stay separate text parts with their cache_control', () => {
    expect(c.messages[0]).toEqual({
      role: 'system',
      content: [
        { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
        { type: 'text', text: 'Project instructions.', cache_control: { type: 'ephemeral' } },
      ],
    });
  });

  it('user blocks stay parts (cache_control kept), documents become file parts', () => {
    expect(c.messages[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: '<system-reminder>context</system-reminder>' },
        { type: 'text', text: 'look at the screen', cache_control: { type: 'ephemeral' } },
        {
          type: 'file',
          file: { file_data: `data:text/plain;base64,${Buffer.from('notes').toString('base64')}`, filename: 'n.txt' },
        },
      ],
    });
  });

  it('signed and redacted thinking become thinking_blocks, the text reasoning_content', () => {
    expect(c.messages[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'Read', arguments: '{"path":"a.png"}' } }],
      reasoning_content: 'I should look.',
      thinking_blocks: [
        { type: 'thinking', thinking: 'I should look.', signature: 'EqSig==' },
        { type: 'redacted_thinking', data: 'opaque' },
      ],
    });
  });

  it('a tool_result keeps is_error and its image', () => {
    expect(c.messages[3]).toEqual({
      role: 'tool',
      tool_call_id: 'toolu_1',
      is_error: true,
      content: [
        { type: 'text', text: 'partial' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
      ],
    });
  });

  it('thinking, top_k and metadata map; server tools and Anthropic-only fields are left out', () => {
    expect(c.reasoning).toEqual({ budget_tokens: 10000, include: true });
    expect(c.top_k).toBe(40);
    expect(c.user).toBe('user_abc_session_1');
    expect(c.tools).toEqual([
      {
        type: 'function',
        function: { name: 'Read', description: 'Read a file', parameters: { type: 'object', properties: {} } },
      },
    ]);
    expect(c).not.toHaveProperty('service_tier');
    expect(c).not.toHaveProperty('thinking');
    expect(c).not.toHaveProperty('metadata');
  });

  it('disabled thinking is effort none; adaptive is medium', () => {
    const base = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] };
    expect(anthropicToOpenAI(anthropicBody.parse({ ...base, thinking: { type: 'disabled' } })).reasoning).toEqual({
      effort: 'none',
    });
    expect(anthropicToOpenAI(anthropicBody.parse({ ...base, thinking: { type: 'adaptive' } })).reasoning).toEqual({
      effort: 'medium',
      include: true,
    });
  });

  it('thinking the gateway signed is text only, and is taken out of the native body', () => {
    const body = anthropicBody.parse({
      model: 'm',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'x' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'relayed', signature: GATEWAY_SIGNATURE },
            { type: 'text', text: 'ok' },
          ],
        },
      ],
    });
    expect(anthropicToOpenAI(body).messages).toEqual([
      { role: 'user', content: 'x' },
      { role: 'assistant', content: 'ok', reasoning_content: 'relayed' },
    ]);
    expect(withoutGatewayThinking(body).messages[1].content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(body.messages[1].content).toHaveLength(2);
  });

  it('structured outputs (output_config.format, or the beta output_format) become response_format json_schema', () => {
    const base = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'x' }] };
    const closed = {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    };
    const body = anthropicBody.parse({ ...base, output_config: { format: { type: 'json_schema', schema: closed } } });
    expect(anthropicToOpenAI(body).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'output', schema: closed, strict: true },
    });
    // The native body keeps Anthropic's own field.
    expect(withoutGatewayThinking(body).output_config).toEqual({ format: { type: 'json_schema', schema: closed } });
    // A schema OpenAI's strict mode would refuse (an optional property) goes without `strict`; a title names it.
    const open = { title: 'forecast', type: 'object', properties: { city: { type: 'string' } } };
    expect(
      anthropicToOpenAI(anthropicBody.parse({ ...base, output_format: { type: 'json_schema', schema: open } }))
        .response_format,
    ).toEqual({ type: 'json_schema', json_schema: { name: 'forecast', schema: open } });
  });
});

describe('output_config.effort on converted paths', () => {
  const ask = (extra: object) =>
    anthropicToOpenAI(
      anthropicBody.parse({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }], ...extra }),
    );

  it('becomes the reasoning effort other upstreams take (max is the top step)', () => {
    expect(ask({ output_config: { effort: 'low' } }).reasoning).toEqual({ effort: 'low' });
    expect(ask({ thinking: { type: 'adaptive' }, output_config: { effort: 'max' } }).reasoning).toEqual({
      effort: 'xhigh',
      include: true,
    });
  });

  it('never overrides a budget the client set, nor thinking turned off', () => {
    const budget = { type: 'enabled', budget_tokens: 2048 };
    expect(ask({ thinking: budget, output_config: { effort: 'high' } }).reasoning).toEqual({
      budget_tokens: 2048,
      include: true,
    });
    expect(ask({ thinking: { type: 'disabled' }, output_config: { effort: 'high' } }).reasoning).toEqual({
      effort: 'none',
    });
  });
});

describe("Anthropic's server tools on a converted path", () => {
  it('are left out and named for the caller; a tool_choice forcing one is refused, naming it', () => {
    expect(serverToolsOf(claudeCode)).toEqual(['web_search_20250305']);
    expect(forcedServerTool(claudeCode)).toBeUndefined();
    // Claude Code's WebSearch request forces the server tool.
    const search = anthropicBody.parse({
      model: 'claude-opus-4-8',
      max_tokens: 64000,
      messages: [{ role: 'user', content: 'Perform a web search for the query: gateways' }],
      tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 8 }],
      tool_choice: { type: 'tool', name: 'web_search' },
    });
    expect(forcedServerTool(search)).toMatchObject({
      status: 400,
      code: 'unsupported_tool',
      message: expect.stringMatching(/^tool_choice requires Anthropic's server tool "web_search_20250305"/),
    });
    // Forcing one of the client's own tools is carried.
    expect(forcedServerTool({ ...claudeCode, tool_choice: { type: 'tool', name: 'Read' } })).toBeUndefined();
  });
});
