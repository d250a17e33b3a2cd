import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderProviderDocs } from './provider-docs.ts';

describe('docs/providers.md', () => {
  it('matches the generator output (run `npm run docs:providers` after changing the registry)', () => {
    const committed = readFileSync(new URL('../docs/providers.md', import.meta.url), 'utf8');
    expect(committed).toBe(renderProviderDocs());
  });

  it('lists the native adapters', () => {
    const doc = renderProviderDocs();
    expect(doc).toMatch(
      /\| 14 \| Anthropic \| `https:\/\/api.anthropic.com` \| anthropic \| .*`\/v1\/messages` \(native\)/,
    );
    expect(doc).toMatch(/\| 24 \| Gemini \| .* \| gemini \| .*generateContent` \(native\)/);
    expect(doc).toMatch(/\| 3 \| Azure OpenAI \| \(given by the channel\) \| azure \|/);
  });

  it('lists 360 (type 19) as relayed by the OpenAI adapter', () => {
    expect(renderProviderDocs()).toMatch(
      /\| 19 \| 360 \| `https:\/\/api.360.cn` \| openai \| `\/v1\/chat\/completions`/,
    );
  });
});
