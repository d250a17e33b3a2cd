import { describe, expect, it } from 'vitest';
import { validateAnthropic } from './anthropic.ts';
import { redactedThinkingData, signThinking } from './signatures.ts';
import type { StrictRefusal } from './types.ts';

const headers = { 'anthropic-version': '2023-06-01' };
const messages = (body: Record<string, unknown>, h: Record<string, string> = headers) =>
  validateAnthropic('/v1/messages', h, body);
const messageOf = (r: StrictRefusal | null) => (r?.body as { error: { message: string } } | undefined)?.error.message;

const base = { model: 'claude-sonnet-4-5', max_tokens: 2048 };
const user = { role: 'user', content: 'Weather in Paris?' };
const tool = { name: 'get_weather', input_schema: { type: 'object', properties: { location: { type: 'string' } } } };
const use = { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { location: 'Paris' } };
const result = { type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' };
const thought = { type: 'thinking', thinking: 'Let me think.', signature: signThinking('Let me think.') };
const thinking = { type: 'enabled', budget_tokens: 1024 };
/** A real 1x1 PNG (the relay tests' PNG_1PX). */
const PNG_DATA = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const PNG_1PX = `data:image/png;base64,${PNG_DATA}`;

describe('Anthropic Messages (strict)', () => {
  it('passes a Claude Code-like request: system blocks with cache_control, tools, thinking, a signed tool loop', () => {
    expect(
      messages(
        {
          ...base,
          stream: true,
          system: [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } }],
          tools: [tool],
          thinking,
          metadata: { user_id: 'u1' },
          messages: [user, { role: 'assistant', content: [thought, use] }, { role: 'user', content: [result] }],
        },
        { ...headers, 'anthropic-beta': 'interleaved-thinking-2025-05-14' },
      ),
    ).toBeNull();
  });

  it('takes a system message between turns only with the beta Claude Code 2.1 asks for (text only)', () => {
    const system = { role: 'system', content: 'Available agent types: general-purpose.' };
    const body = {
      ...base,
      messages: [user, system, { role: 'assistant', content: [use] }, { role: 'user', content: [result] }],
    };
    const beta = { ...headers, 'anthropic-beta': 'claude-code-20250219,mid-conversation-system-2026-04-07' };
    expect(messages({ ...body, tools: [tool] }, beta)).toBeNull();
    expect(messageOf(messages({ ...body, tools: [tool] }))).toBe(
      "messages.1.role: Input should be 'user' or 'assistant'",
    );
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_DATA } };
    expect(messageOf(messages({ ...base, messages: [user, { role: 'system', content: [image] }] }, beta))).toMatch(
      /^messages\.1\.content: a `system` message holds text only/,
    );
  });

  it('refuses unknown fields with pydantic words, at the top level and inside blocks', () => {
    const r = messages({ ...base, messages: [user], prompt_cache_key: 'k' });
    expect(r).toEqual({
      status: 400,
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'prompt_cache_key: Extra inputs are not permitted' },
        request_id: 'req_strict_fake',
      },
    });
    const block = { role: 'user', content: [{ type: 'text', text: 'hi', thought_signature: 'x' }] };
    expect(messageOf(messages({ ...base, messages: [block] }))).toBe(
      'messages.0.content.0.text.thought_signature: Extra inputs are not permitted',
    );
    expect(messageOf(messages({ ...base, messages: [user], metadata: { user_id: 'u', session: 's' } }))).toBe(
      'metadata.session: Extra inputs are not permitted',
    );
  });

  it('needs max_tokens on messages (and refuses it on count_tokens)', () => {
    expect(messageOf(messages({ model: 'claude-sonnet-4-5', messages: [user] }))).toBe('max_tokens: Field required');
    const count = (body: Record<string, unknown>) => validateAnthropic('/v1/messages/count_tokens', headers, body);
    expect(count({ model: 'claude-sonnet-4-5', messages: [user] })).toBeNull();
    expect(messageOf(count({ ...base, messages: [user] }))).toBe('max_tokens: Extra inputs are not permitted');
  });

  it('refuses a tool_result with no tool_use in the previous turn, and tool_use left unanswered', () => {
    const orphan = messages({
      ...base,
      messages: [user, { role: 'assistant', content: 'ok' }, { role: 'user', content: [result] }],
    });
    expect(messageOf(orphan)).toBe(
      'messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_1. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    );
    const open = messages({ ...base, messages: [user, { role: 'assistant', content: [use] }, user] });
    expect(messageOf(open)).toBe(
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    );
    // Text before the results leaves them not "immediately after".
    const textFirst = { role: 'user', content: [{ type: 'text', text: 'here' }, result] };
    expect(
      messageOf(messages({ ...base, messages: [user, { role: 'assistant', content: [use] }, textFirst] })),
    ).toMatch(/^messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after/);
    // Consecutive same-role messages merge into one turn (results in two user messages are fine).
    const two = [{ ...use, id: 'toolu_2' }, use];
    const answered = [
      { role: 'user', content: [{ ...result, tool_use_id: 'toolu_2' }] },
      { role: 'user', content: [result] },
    ];
    expect(messages({ ...base, messages: [user, { role: 'assistant', content: two }, ...answered] })).toBeNull();
  });

  it('checks tool ids and inputs as the API does', () => {
    const dotted = { ...use, id: 'call.1' };
    expect(messageOf(messages({ ...base, messages: [user, { role: 'assistant', content: [dotted] }] }))).toBe(
      "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
    );
    const stringInput = { ...use, input: '{"location":"Paris"}' };
    expect(messageOf(messages({ ...base, messages: [user, { role: 'assistant', content: [stringInput] }] }))).toBe(
      'messages.1.content.0.tool_use.input: Input should be a valid dictionary',
    );
  });

  it('refuses thinking settings the API refuses', () => {
    expect(messageOf(messages({ ...base, messages: [user], thinking: { type: 'enabled', budget_tokens: 500 } }))).toBe(
      'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024',
    );
    expect(messageOf(messages({ ...base, max_tokens: 1024, messages: [user], thinking }))).toMatch(
      /^`max_tokens` must be greater than `thinking.budget_tokens`/,
    );
    expect(messageOf(messages({ ...base, messages: [user], thinking, temperature: 0.5 }))).toMatch(
      /^`temperature` may only be set to 1 when thinking is enabled/,
    );
    expect(
      messageOf(messages({ ...base, messages: [user], thinking, tools: [tool], tool_choice: { type: 'any' } })),
    ).toBe('Thinking may not be enabled when tool_choice forces tool use.');
  });

  it('needs the tool loop to start with a thinking block when thinking is on', () => {
    const r = messages({
      ...base,
      thinking,
      tools: [tool],
      messages: [user, { role: 'assistant', content: [use] }, { role: 'user', content: [result] }],
    });
    expect(messageOf(r)).toBe(
      'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking',
    );
    // Later steps of the same loop need none of their own; a new user prompt needs none either.
    const steps = [
      user,
      { role: 'assistant', content: [thought, use] },
      { role: 'user', content: [result] },
      { role: 'assistant', content: [{ ...use, id: 'toolu_2' }] },
      { role: 'user', content: [{ ...result, tool_use_id: 'toolu_2' }] },
    ];
    expect(messages({ ...base, thinking, tools: [tool], messages: steps })).toBeNull();
    expect(messages({ ...base, thinking, messages: [user, { role: 'assistant', content: 'ok' }, user] })).toBeNull();
  });

  it('refuses thinking signatures it did not issue for that text, and redacted data it did not seal', () => {
    const forged = { ...thought, signature: 'sig-fake' };
    const r = messages({
      ...base,
      thinking,
      tools: [tool],
      messages: [user, { role: 'assistant', content: [forged, use] }, { role: 'user', content: [result] }],
    });
    expect(messageOf(r)).toBe('messages.1.content.0: Invalid `signature` in `thinking` block');
    const edited = { ...thought, thinking: 'Let me think again.' };
    expect(
      messageOf(
        messages({
          ...base,
          messages: [user, { role: 'assistant', content: [edited, { type: 'text', text: 'ok' }] }, user],
        }),
      ),
    ).toBe('messages.1.content.0: Invalid `signature` in `thinking` block');
    const redacted = { type: 'redacted_thinking', data: redactedThinkingData('x') };
    expect(
      messages({
        ...base,
        thinking,
        tools: [tool],
        messages: [user, { role: 'assistant', content: [redacted, use] }, { role: 'user', content: [result] }],
      }),
    ).toBeNull();
    expect(
      messageOf(
        messages({
          ...base,
          messages: [
            user,
            {
              role: 'assistant',
              content: [
                { ...redacted, data: 'AAAA' },
                { type: 'text', text: 'x' },
              ],
            },
            user,
          ],
        }),
      ),
    ).toBe('messages.1.content.0: Invalid `data` in `redacted_thinking` block');
  });

  it('refuses block types it does not know and images whose bytes are not their media type', () => {
    const openaiPart = { role: 'user', content: [{ type: 'image_url', image_url: { url: PNG_1PX } }] };
    expect(messageOf(messages({ ...base, messages: [openaiPart] }))).toMatch(
      /^messages\.0\.content\.0: Input tag 'image_url' found using 'type' does not match any of the expected tags: 'text', 'image'/,
    );
    const image = (media_type: string) => ({
      role: 'user',
      content: [{ type: 'image', source: { type: 'base64', media_type, data: PNG_DATA } }],
    });
    expect(messages({ ...base, messages: [image('image/png')] })).toBeNull();
    expect(messageOf(messages({ ...base, messages: [image('image/jpeg')] }))).toBe(
      'messages.0.content.0.image.source.base64.data: The image was specified using the image/jpeg media type, but the image appears to be a image/png image',
    );
    expect(messageOf(messages({ ...base, messages: [image('image/svg+xml')] }))).toBe(
      "messages.0.content.0.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
    );
    // An image inside a tool result is allowed (Claude Code's screenshots).
    const shot = {
      ...result,
      content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_DATA } }],
    };
    expect(
      messages({
        ...base,
        tools: [tool],
        messages: [user, { role: 'assistant', content: [use] }, { role: 'user', content: [shot] }],
      }),
    ).toBeNull();
  });

  it('refuses uppercase OpenAPI schema types in tools, empty text blocks and more than 4 cache breakpoints', () => {
    const upper = { name: 'f', input_schema: { type: 'OBJECT', properties: {} } };
    expect(messageOf(messages({ ...base, messages: [user], tools: [upper] }))).toBe(
      "tools.0.custom.input_schema.type: Input should be 'object'",
    );
    const nested = { name: 'f', input_schema: { type: 'object', properties: { a: { type: 'STRING' } } } };
    expect(messageOf(messages({ ...base, messages: [user], tools: [nested] }))).toMatch(
      /^tools\.0\.custom\.input_schema: JSON schema is invalid/,
    );
    expect(messageOf(messages({ ...base, messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] }))).toBe(
      'messages: text content blocks must be non-empty',
    );
    const cc = { cache_control: { type: 'ephemeral' } };
    const system = Array.from({ length: 5 }, (_, i) => ({ type: 'text', text: `s${i}`, ...cc }));
    expect(messageOf(messages({ ...base, system, messages: [user] }))).toBe(
      'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    );
  });
});
