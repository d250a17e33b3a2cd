import { describe, expect, it } from 'vitest';
import type { AttemptContext } from '../types.ts';
import { aiProxyLibraryAdapter } from './adapter.ts';

const ctx = {
  upstreamModel: 'gpt-4o-mini',
  channel: { baseUrl: 'http://lib', other: 'lib-1' },
  key: 'k',
  stream: false,
} as unknown as AttemptContext;
const answer = (text: string) =>
  JSON.parse(aiProxyLibraryAdapter.convertResponse(ctx, text).body) as { choices: { message: { content: string } }[] };

describe('AI Proxy knowledge base answers', () => {
  it('cite the documents the library used as a numbered reference list after the answer', () => {
    const body = answer(
      JSON.stringify({
        success: true,
        answer: 'Paris.',
        documents: [
          { title: 'Atlas', url: 'https://a.example/atlas' },
          { title: 'Guide', url: 'https://g.example' },
        ],
      }),
    );
    expect(body.choices[0].message.content).toBe(
      'Paris.\n\n参考文献：\n1. [Atlas](https://a.example/atlas)\n2. [Guide](https://g.example)\n',
    );
  });

  it('ask the library the last user question, with the library id from the channel', () => {
    const req = aiProxyLibraryAdapter.buildRequest(ctx, {
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'First?' },
        { role: 'assistant', content: 'One.' },
        { role: 'user', content: [{ type: 'text', text: 'Capital of France?' }] },
      ],
    }) as { url: string; body: string };
    expect(req.url).toBe('http://lib/api/library/ask');
    expect(JSON.parse(req.body)).toEqual({
      model: 'gpt-4o-mini',
      query: 'Capital of France?',
      libraryId: 'lib-1',
      stream: false,
    });
  });
});
