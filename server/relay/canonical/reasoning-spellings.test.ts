import { describe, expect, it } from 'vitest';
import { createDetailsMerger, reasoningTextOf, toInternalReasoning } from './reasoning-spellings.ts';

/*
 * The one rule for reading an OpenAI-compatible answer's reasoning (docs/conversion.md § Reasoning),
 * on the shapes vendors send; the conformance cases check it end to end through every door.
 */
describe('reasoningTextOf', () => {
  it('reads each spelling, and two spellings of one text once', () => {
    expect(reasoningTextOf({ reasoning_content: 'a' })).toBe('a');
    expect(reasoningTextOf({ reasoning: 'a' })).toBe('a');
    // OpenRouter: both spellings of the same piece in one message or delta.
    expect(reasoningTextOf({ reasoning: 'a', reasoning_details: [{ type: 'reasoning.text', text: 'a' }] })).toBe('a');
    // vLLM during its rename: the old field empty or null, the new one set.
    expect(reasoningTextOf({ reasoning_content: null, reasoning: 'a' })).toBe('a');
    expect(reasoningTextOf({ reasoning_content: '', reasoning: 'a' })).toBe('a');
  });

  it("reads reasoning_details' text and summary items in order; encrypted items have no text", () => {
    const details = [
      { type: 'reasoning.summary', summary: 'Plan. ', format: 'openai-responses-v1', index: 0 },
      { type: 'reasoning.encrypted', data: 'gAAAA…', format: 'openai-responses-v1', index: 1 },
      { type: 'reasoning.text', text: 'Then act.', index: 2 },
    ];
    expect(reasoningTextOf({ reasoning_details: details })).toBe('Plan. Then act.');
    expect(reasoningTextOf({ reasoning_details: [details[1]] })).toBe('');
  });
});

describe('toInternalReasoning', () => {
  it('leaves reasoning_content alone and moves the other spellings into it, handing back the details', () => {
    const plain = { content: 'x', reasoning_content: 'a' };
    expect(toInternalReasoning(plain)).toEqual({ changed: false });
    expect(plain).toEqual({ content: 'x', reasoning_content: 'a' });

    const details = [{ type: 'reasoning.text', text: 'a', signature: 's' }];
    const or: Record<string, unknown> = { content: 'x', reasoning: 'a', reasoning_details: details };
    expect(toInternalReasoning(or)).toEqual({ changed: true, details });
    expect(or).toEqual({ content: 'x', reasoning_content: 'a' });

    // A delta that only carries an encrypted item (or a signature) has no text to show.
    const sig: Record<string, unknown> = { reasoning_details: [{ type: 'reasoning.encrypted', data: 'e' }] };
    expect(toInternalReasoning(sig).changed).toBe(true);
    expect(sig).toEqual({});
  });
});

describe('createDetailsMerger', () => {
  it('merges stream fragments of one item (type and index) and keeps the signature that came last', () => {
    const m = createDetailsMerger();
    m.add([{ type: 'reasoning.text', text: 'r0 ', format: 'f', index: 0 }]);
    m.add([{ type: 'reasoning.text', text: 'r1 ', format: 'f', index: 0 }]);
    m.add([{ type: 'reasoning.text', text: '', signature: 'sig', format: 'f', index: 0 }]);
    m.add([{ type: 'reasoning.encrypted', data: 'e', format: 'f', index: 1 }]);
    m.add(undefined);
    expect(m.items()).toEqual([
      { type: 'reasoning.text', text: 'r0 r1 ', signature: 'sig', format: 'f', index: 0 },
      { type: 'reasoning.encrypted', data: 'e', format: 'f', index: 1 },
    ]);
  });

  it('keeps items without an index as they came', () => {
    const m = createDetailsMerger();
    m.add([{ type: 'reasoning.text', text: 'a' }]);
    m.add([{ type: 'reasoning.text', text: 'b' }, { nonsense: true }]);
    expect(m.items()).toEqual([
      { type: 'reasoning.text', text: 'a' },
      { type: 'reasoning.text', text: 'b' },
    ]);
  });
});
