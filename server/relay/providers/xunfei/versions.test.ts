import { describe, expect, it } from 'vitest';
import { sparkVersionFor } from './versions.ts';

/* Which Spark path and domain a channel's model and `other` select (new-api's names keep working). */
describe('Spark version of an attempt', () => {
  const pick = (model: string, other = '') => {
    const v = sparkVersionFor(model, other);
    return [v.path, v.domain];
  };

  it("reads new-api's SparkDesk-<version> names, product names and domains", () => {
    expect(pick('SparkDesk-v1.1')).toEqual(['/v1.1/chat', 'lite']);
    expect(pick('SparkDesk-lite')).toEqual(['/v1.1/chat', 'lite']);
    expect(pick('SparkDesk-v3.1')).toEqual(['/v3.1/chat', 'generalv3']);
    expect(pick('SparkDesk-pro-128k')).toEqual(['/chat/pro-128k', 'pro-128k']);
    expect(pick('SparkDesk-max-32k')).toEqual(['/chat/max-32k', 'max-32k']);
    expect(pick('SparkDesk-v4.0')).toEqual(['/v4.0/chat', '4.0Ultra']);
    expect(pick('generalv3.5')).toEqual(['/v3.5/chat', 'generalv3.5']);
    expect(pick('4.0Ultra')).toEqual(['/v4.0/chat', '4.0Ultra']);
    expect(pick('spark-max')).toEqual(['/v3.5/chat', 'generalv3.5']);
  });

  it("falls back to the channel's other, then v2.1; an undocumented vX.Y goes as new-api sends it", () => {
    expect(pick('SparkDesk', 'v3.5')).toEqual(['/v3.5/chat', 'generalv3.5']);
    expect(pick('gpt-4o', 'pro-128k')).toEqual(['/chat/pro-128k', 'pro-128k']);
    expect(pick('SparkDesk', '')).toEqual(['/v2.1/chat', 'generalv2']);
    expect(pick('SparkDesk', 'nonsense')).toEqual(['/v2.1/chat', 'generalv2']);
    expect(pick('SparkDesk-v9.9', 'v3.5')).toEqual(['/v9.9/chat', 'generalv9.9']);
  });
});
