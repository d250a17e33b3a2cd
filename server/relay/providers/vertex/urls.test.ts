import { describe, expect, it } from 'vitest';
import { vertexClaudeId, vertexRegion } from './urls.ts';

describe('Vertex AI region and model id', () => {
  it("reads the region from 'other' as new-api does: one region, or a JSON map with a default, else global", () => {
    expect(vertexRegion('us-east5', 'gemini-2.5-flash')).toBe('us-east5');
    expect(vertexRegion('', 'gemini-2.5-flash')).toBe('global');
    const map = JSON.stringify({ default: 'europe-west1', 'claude-sonnet-4-20250514': 'us-east5' });
    expect(vertexRegion(map, 'claude-sonnet-4-20250514')).toBe('us-east5');
    expect(vertexRegion(map, 'gemini-2.5-flash')).toBe('europe-west1');
    expect(vertexRegion('{"gemini-2.5-pro":"us-central1"}', 'gemini-2.5-flash')).toBe('global');
  });

  it("spells Claude ids as Vertex does (date after '@', Sonnet 3.5 v2's own name), keeping a Vertex id", () => {
    expect(vertexClaudeId('claude-sonnet-4-20250514')).toBe('claude-sonnet-4@20250514');
    expect(vertexClaudeId('claude-3-5-sonnet-20241022')).toBe('claude-3-5-sonnet-v2@20241022');
    expect(vertexClaudeId('claude-3-5-haiku@20241022')).toBe('claude-3-5-haiku@20241022');
    expect(vertexClaudeId('claude-opus-4-1-20250805-thinking')).toBe('claude-opus-4-1@20250805');
  });
});
