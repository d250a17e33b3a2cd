import { describe, expect, it } from 'vitest';
import { jsonProblem, lineAndColumn } from './json-problem.ts';

describe('jsonProblem: what is wrong with a JSON text, and at which line and column', () => {
  it('finds nothing wrong in valid or blank text', () => {
    expect(jsonProblem('{"gpt-4o": 1.25}')).toBeNull();
    expect(jsonProblem('[1, 2]')).toBeNull();
    expect(jsonProblem('  \n')).toBeNull();
  });

  it('names the line and column of a missing comma, from the position V8 gives', () => {
    const text = '{\n  "gpt-4o": 1.25,\n  "o3": 2\n  "o4-mini": 0.55\n}';
    expect(jsonProblem(text)).toEqual({ reason: 'comma_or_brace', line: 4, column: 3, char: '"' });
  });

  it('counts lines and columns from 1, columns within the line', () => {
    expect(lineAndColumn('ab\ncd\nef', 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn('ab\ncd\nef', 4)).toEqual({ line: 2, column: 2 });
    expect(lineAndColumn('ab\ncd\nef', 8)).toEqual({ line: 3, column: 3 });
  });

  it('locates the mistakes V8 names without a position (trailing comma in an array, a misspelt literal)', () => {
    expect(jsonProblem('{\n  "a": [1, 2,]\n}')).toEqual({ reason: 'token', line: 2, column: 14, char: ']' });
    expect(jsonProblem('{"a": tru}')).toEqual({ reason: 'token', line: 1, column: 10, char: '}' });
    expect(jsonProblem('x')).toEqual({ reason: 'token', line: 1, column: 1, char: 'x' });
  });

  it('tells the common mistakes apart', () => {
    const reason = (text: string) => jsonProblem(text)?.reason;
    expect(reason("{'a': 1}")).toBe('property_name');
    expect(reason('{"a": 1,}')).toBe('property_name');
    expect(reason('{"a" 1}')).toBe('colon');
    expect(reason('[1 2]')).toBe('comma_or_bracket');
    expect(reason('{"a": 1} x')).toBe('after_value');
    expect(reason('{"a": "b\nc"}')).toBe('control_char');
    expect(reason('{"a": "\\q"}')).toBe('escape');
    expect(reason('{"a": "b')).toBe('unterminated_string');
    expect(reason('{"a": -}')).toBe('number');
  });

  it('points a missing closing brace just after the last character, not at a blank line below', () => {
    expect(jsonProblem('{\n  "a": 1\n\n')).toEqual({ reason: 'comma_or_brace', line: 2, column: 9, char: '\n' });
    expect(jsonProblem('{"a": ')).toMatchObject({ line: 1, column: 6 });
  });

  it('refuses an array or a scalar where an object is asked for, at its first character', () => {
    expect(jsonProblem('  [1]', { object: true })).toEqual({ reason: 'not_object', line: 1, column: 3, char: '[' });
    expect(jsonProblem('{}', { object: true })).toBeNull();
    expect(jsonProblem('', { object: true })).toBeNull();
  });

  it('stays fast on a large text with the mistake at its end', () => {
    const big = `{${Array.from({ length: 20_000 }, (_, i) => `"m${i}": ${i}`).join(',\n')},]`;
    const started = performance.now();
    expect(jsonProblem(big)).toMatchObject({ line: 20_000 });
    expect(performance.now() - started).toBeLessThan(500);
  });
});
