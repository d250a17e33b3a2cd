import { describe, expect, it } from 'vitest';
import { claudeCodeSession, clientSessionId, sessionHintOf, stablePrefixDigest } from './session-id.ts';

/*
 * The session hints as the real clients sent them to a recording server (issue 29): Codex 0.171.0
 * (`codex exec`, wire_api "responses"), Claude Code 2.1.197 (`claude -p`), OpenCode 1.18.33 (`opencode
 * run`, an OpenAI-compatible provider), Qwen Code 0.15.10 against DashScope (its provider's metadata),
 * Gemini CLI 0.61.0 (API key: no session hint at all).
 */

const codexHeaders = {
  'session-id': '01a21878-e248-7d92-8986-67fdbd3993e6',
  'thread-id': '01a21878-e248-7d92-8986-67fdbd3993e6',
  'x-client-request-id': '01a21878-e248-7d92-8986-67fdbd3993e6',
  originator: 'codex_exec',
};
const codexBody = { model: 'gpt-5', prompt_cache_key: '01a21878-e248-7d92-8986-67fdbd3993e6', input: [] };
const claudeBody = {
  model: 'claude-opus-4-8',
  messages: [],
  metadata: {
    user_id:
      '{"device_id":"96949fa8e5a9ef82b8811cd2f3451b75d7385b9a98d9e72748813a9a01f21e64","account_uuid":"","session_id":"a25adf7d-88a1-4929-a240-ded74cc39db3"}',
  },
};
const openCodeHeaders = {
  'x-session-affinity': 'ses_de786d385ffegEpUFKn1k922BE',
  'x-session-id': 'ses_de786d385ffegEpUFKn1k922BE',
};

describe('the session a request belongs to', () => {
  it("reads each client's own hint", () => {
    expect(clientSessionId(codexHeaders, codexBody)).toBe('01a21878-e248-7d92-8986-67fdbd3993e6');
    // The same Codex session by its headers alone (a body without prompt_cache_key), old and new spellings.
    expect(clientSessionId(codexHeaders, {})).toBe('01a21878-e248-7d92-8986-67fdbd3993e6');
    expect(clientSessionId({ session_id: 'old-codex', conversation_id: 'c' }, {})).toBe('old-codex');
    expect(clientSessionId({ conversation_id: 'conv-1' }, {})).toBe('conv-1');
    expect(clientSessionId({}, claudeBody)).toBe('a25adf7d-88a1-4929-a240-ded74cc39db3');
    expect(clientSessionId({ 'x-claude-code-session-id': 'a25adf7d' }, {})).toBe('a25adf7d');
    expect(clientSessionId(openCodeHeaders, {})).toBe('ses_de786d385ffegEpUFKn1k922BE');
    expect(clientSessionId({ 'x-session-affinity': 'ses_x' }, {})).toBe('ses_x');
    expect(clientSessionId({}, { metadata: { sessionId: 'qwen-session', promptId: 'p1' } })).toBe('qwen-session');
    expect(clientSessionId({}, { model: 'gemini-2.5-pro', contents: [] })).toBeUndefined();
  });

  it("takes Claude Code's session from metadata.user_id in both of its forms, nothing from a plain user id", () => {
    expect(
      claudeCodeSession(
        'user_0f3e9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f_account_4d1a2b3c-1111-2222-3333-444455556666_session_9e8d7c6b-aaaa-bbbb-cccc-ddddeeeeffff',
      ),
    ).toBe('9e8d7c6b-aaaa-bbbb-cccc-ddddeeeeffff');
    expect(claudeCodeSession('customer-42')).toBeUndefined();
    expect(claudeCodeSession('{not json')).toBeUndefined();
    expect(claudeCodeSession(42)).toBeUndefined();
  });

  it('prefers the explicit X-Session-Id, then prompt_cache_key, then the headers', () => {
    expect(clientSessionId({ 'x-session-id': 'mine', 'session-id': 'codex' }, { prompt_cache_key: 'k' })).toBe('mine');
    expect(clientSessionId({ 'session-id': 'codex' }, { prompt_cache_key: 'k' })).toBe('k');
    expect(clientSessionId({ 'x-session-id': '   ' }, {})).toBeUndefined();
  });

  it('falls back on the stable prefix: the same through a growing conversation, apart per token and prompt', () => {
    const system = { role: 'system', content: 'You are a coding agent. '.repeat(200) };
    const tools = [{ type: 'function', function: { name: 'read_file', parameters: {} } }];
    const turn1 = { messages: [system, { role: 'user', content: 'fix the bug' }], tools };
    const turn3 = {
      messages: [
        ...turn1.messages,
        { role: 'assistant', content: 'looking' },
        { role: 'user', content: 'and now?' },
        { role: 'assistant', content: 'done' },
        { role: 'user', content: 'thanks' },
      ],
      tools,
    };
    const a = stablePrefixDigest(turn1, 't1');
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(stablePrefixDigest(turn3, 't1')).toBe(a);
    expect(stablePrefixDigest(turn1, 't2')).not.toBe(a);
    expect(
      stablePrefixDigest({ ...turn1, messages: [system, { role: 'user', content: 'other task' }] }, 't1'),
    ).not.toBe(a);
    expect(stablePrefixDigest({ messages: [] }, 't1')).toBeUndefined();
    // Too short to be cached upstream (under about 1,024 tokens): no pin, routed as before.
    expect(stablePrefixDigest({ messages: [{ role: 'user', content: 'hi' }] }, 't1')).toBeUndefined();
    const growing = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'x'.repeat(5000) },
    ];
    expect(stablePrefixDigest({ messages: growing }, 't1')).toBe(
      stablePrefixDigest({ messages: [...growing, { role: 'user', content: 'more' }] }, 't1'),
    );
    // An explicit id wins over the prefix, and the id itself never becomes the digest.
    const hint = sessionHintOf({ 'x-session-id': 'abc' }, {}, turn1, 't1');
    expect(hint?.kind).toBe('explicit');
    expect(hint?.digest).not.toContain('abc');
    expect(sessionHintOf({}, {}, turn1, 't1')).toEqual({ kind: 'prefix', digest: a });
  });

  it('hashes only the first characters of an image in the first message', () => {
    const image = (data: string) => ({
      messages: [
        { role: 'system', content: 'Describe images. '.repeat(300) },
        { role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${data}` } }] },
      ],
    });
    const big = 'A'.repeat(5_000_000);
    // Images that differ past their first characters are the same prefix: the rest is never read.
    const digest = stablePrefixDigest(image(big), 't');
    expect(digest).toBe(stablePrefixDigest(image(`${big}B`), 't'));
    expect(digest).not.toBe(stablePrefixDigest(image('B'), 't'));
  });
});
