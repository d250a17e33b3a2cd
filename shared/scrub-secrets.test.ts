import { describe, expect, it } from 'vitest';
import { scrubSecrets } from './scrub-secrets.ts';

/* Issue 39: what the masking of upstream text catches without knowing the key, and what it leaves. */
describe('scrubSecrets', () => {
  it.each([
    ['Incorrect API key provided: sk-proj-AbC123dEf456GhI789.', 'Incorrect API key provided: sk-***'],
    ['invalid x-api-key sk-ant-api03-AbCdEf123456-xyz', 'invalid x-api-key sk-***'],
    ['API key not valid: AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUv', 'API key not valid: AIza***'],
    ['sent Authorization: Bearer eyJhbGciOi.abc-def_ghi', 'sent Authorization: Bearer ***'],
    ['upstream said Bearer abc.def-123', 'upstream said Bearer ***'],
    [
      'GET https://x.test/v1/models?key=secret123&alt=sse failed',
      'GET https://x.test/v1/models?key=***&alt=sse failed',
    ],
    ['{"api_key":"abcdef123456"}', '{"api_key":"***"}'],
  ])('%s', (text, masked) => {
    expect(scrubSecrets(text)).toBe(masked);
  });

  it("takes out the channel's own keys, and each part of a composite one", () => {
    expect(scrubSecrets('bad key 0123456789abcdef', ['0123456789abcdef'])).toBe('bad key ***');
    expect(scrubSecrets('AKIDAAAAAAAA is not allowed', ['AKIDAAAAAAAA|SECRETBBBBBB|us-east-1'])).toBe(
      '*** is not allowed',
    );
  });

  it('leaves the words an admin needs', () => {
    const text = 'You exceeded your current quota, please check your plan and billing details.';
    expect(scrubSecrets(text)).toBe(text);
  });
});
