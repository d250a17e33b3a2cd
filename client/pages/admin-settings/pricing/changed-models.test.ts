import { describe, expect, it } from 'vitest';
import { changedModels } from './changed-models.ts';

describe('what the unsaved-changes bar names for the pricing form', () => {
  const keys = ['ModelPrice', 'ModelRatio', 'CompletionRatio'];
  const saved = {
    ModelPrice: '{"mj_imagine":0.1}',
    ModelRatio: '{"gpt-4o":1.25,"gpt-4o-mini":0.075}',
    CompletionRatio: '{"gpt-4o":4}',
  };

  it('names added, changed and removed models, not the JSON keys, and ignores reformatting', () => {
    const values = {
      ModelPrice: '{}',
      ModelRatio: JSON.stringify({ 'gpt-4o': 1.25, 'gpt-4o-mini': 0.075, 'house-model': 0.5 }, null, 2),
      CompletionRatio: '{"gpt-4o":5}',
    };
    expect(changedModels(saved, values, keys)).toEqual(['gpt-4o', 'house-model', 'mj_imagine']);
    expect(
      changedModels(saved, { ...saved, ModelRatio: JSON.stringify(JSON.parse(saved.ModelRatio), null, 2) }, keys),
    ).toEqual([]);
  });

  it('names the key itself while its text is not a JSON object', () => {
    expect(changedModels(saved, { ...saved, ModelRatio: '{"gpt-4o": ' }, keys)).toEqual(['ModelRatio']);
  });
});
