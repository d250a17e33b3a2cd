import { describe, expect, it } from 'vitest';
import { baseUrlEndsInV1, baseUrlProblem, emptyChannel, problemOf, splitKeys, toChannelInput } from './drawer/form.ts';
import { type ChannelRow, lastTest, responseColor, statusInfo, toEntries } from './types.ts';

const row = (o: Partial<ChannelRow>) => ({ id: 1, tag: null, other_info: '', ...o }) as ChannelRow;

describe('channel form rules (spec §5)', () => {
  const valid = { ...emptyChannel(), name: 'main', key: 'sk-1' };

  it('needs name and key on create only, then at least one model', () => {
    expect(problemOf({ ...valid, name: ' ' }, true)).toBe('nameAndKey');
    expect(problemOf({ ...valid, key: '' }, true)).toBe('nameAndKey');
    expect(problemOf({ ...valid, key: '' }, false)).toBeNull();
    expect(problemOf({ ...valid, models: [] }, true)).toBe('noModel');
  });

  it('checks the JSON fields, and type 41 other only when it looks like JSON', () => {
    expect(problemOf({ ...valid, model_mapping: '{"a":' }, true)).toBe('modelMapping');
    expect(problemOf({ ...valid, param_override: '[1]' }, true)).toBe('paramOverride');
    expect(problemOf({ ...valid, type: 41, other: 'us-central1' }, true)).toBeNull();
    expect(problemOf({ ...valid, type: 41, other: '{bad' }, true)).toBe('other');
  });

  it('strips the trailing slash, defaults type 18 to v2.1, clamps weight and priority', () => {
    const input = toChannelInput({ ...valid, base_url: 'https://x.example/// ', weight: -3, priority: -5000 });
    expect(input.base_url).toBe('https://x.example');
    expect(input.weight).toBe(0);
    expect(input.priority).toBe(-999);
    expect(toChannelInput({ ...valid, type: 18 }).other).toBe('v2.1');
    expect(toChannelInput({ ...valid, type: 18, other: 'v3.5' }).other).toBe('v3.5');
  });

  it('sends several keys one per line and warns about /v1', () => {
    expect(splitKeys('a, b\n\nc,')).toEqual(['a', 'b', 'c']);
    expect(toChannelInput({ ...valid, multiKey: true, key: 'a,b\nc' }).key).toBe('a\nb\nc');
    expect(baseUrlEndsInV1('https://api.example.com/v1/')).toBe(true);
    expect(baseUrlEndsInV1('https://api.example.com/v1beta')).toBe(false);
  });
});

describe('base URL and last test (issue 28)', () => {
  it('takes http(s)://host[:port][/path] or empty, refuses anything else', () => {
    const p = (base_url: string, type = 1) => baseUrlProblem({ type, base_url });
    expect([p(''), p('http://localhost:9100'), p('https://api.example.com/v1/'), p('http://10.0.0.2:8080/x')]).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect([p('localhost:9100'), p('api.example.com'), p('ftp://x'), p('http://'), p('https://x/?a=1')]).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    // Types without a base URL field (Vertex AI) never complain about a leftover value.
    expect(p('localhost:9100', 41)).toBe(false);
  });

  it('reads the stored outcome; legacy rows with only a response time count as passed', () => {
    const failed = JSON.stringify({
      ok: false,
      time_ms: 40,
      message: '请求上游失败：x',
      reason: { code: 'channel.upstream_unreachable', params: { reason: 'x' } },
    });
    expect(lastTest({ test_time: 100, response_time: 0, test_result: failed })).toMatchObject({
      state: 'failed',
      ms: 40,
      time: 100,
      message: { code: 'channel.upstream_unreachable' },
    });
    const passed = JSON.stringify({ ok: true, time_ms: 0 });
    expect(lastTest({ test_time: 100, response_time: 0, test_result: passed })).toEqual({
      state: 'passed',
      ms: 0,
      time: 100,
    });
    expect(lastTest({ test_time: 100, response_time: 900, test_result: '' })).toMatchObject({
      state: 'passed',
      ms: 900,
    });
    expect(lastTest({ test_time: 0, response_time: 0, test_result: '' })).toEqual({ state: 'untested' });
  });
});

describe('channel table helpers', () => {
  it('colours response times like spec §4', () => {
    expect([0, 1000, 1001, 3000, 5000, 5001].map(responseColor)).toEqual([
      'gray',
      'green',
      'lime',
      'lime',
      'yellow',
      'red',
    ]);
  });

  it('groups tagged channels into one entry per tag in tag mode', () => {
    const rows = [row({ id: 1, tag: 'a' }), row({ id: 2, tag: 'b' }), row({ id: 3, tag: 'a' }), row({ id: 4 })];
    const entries = toEntries(rows, true);
    expect(entries.map((e) => e.rowKey)).toEqual(['ta', 'tb', 'c4']);
    expect(entries[0].kind === 'tag' && entries[0].channels.map((c) => c.id)).toEqual([1, 3]);
    expect(toEntries(rows, false)).toHaveLength(4);
  });

  it('reads the auto-disable reason from other_info', () => {
    expect(statusInfo(row({ other_info: '{"status_reason":"401","status_time":5}' }))).toEqual({
      reason: '401',
      time: 5,
    });
    expect(statusInfo(row({ other_info: 'not json' }))).toBeNull();
  });
});
