/*
 * What is wrong with a JSON text, and where: a line and column a person can find, and a reason
 * the console translates. JSON.parse's message (V8's, which Chromium and Node share) names a
 * character position for most mistakes; for the rest ("Unexpected token ']', ... is not valid
 * JSON": a trailing comma, a misspelt true) the position is found by bisecting prefixes. No
 * macros here: vitest imports it.
 */

/** The mistakes the console names; 'other' when the engine's message is not one we know. */
export type JsonReason =
  | 'comma_or_brace'
  | 'comma_or_bracket'
  | 'property_name'
  | 'colon'
  | 'end'
  | 'after_value'
  | 'control_char'
  | 'escape'
  | 'unterminated_string'
  | 'number'
  | 'token'
  | 'not_object'
  | 'other';

export interface JsonProblem {
  reason: JsonReason;
  /** 1-based; the line and column of the character where parsing stopped. */
  line: number;
  column: number;
  /** The character there ('' at the end of the text). */
  char: string;
}

const REASONS: [RegExp, JsonReason][] = [
  [/expected ',' or '}'/i, 'comma_or_brace'],
  [/expected ',' or '\]'/i, 'comma_or_bracket'],
  [/expected ':'/i, 'colon'],
  [/property name/i, 'property_name'],
  [/unexpected end/i, 'end'],
  [/non-whitespace character after JSON/i, 'after_value'],
  [/control character/i, 'control_char'],
  [/escape/i, 'escape'],
  [/unterminated string/i, 'unterminated_string'],
  [/number|minus sign|exponent part/i, 'number'],
  [/unexpected (token|character)/i, 'token'],
];

function parseError(text: string): Error | null {
  try {
    JSON.parse(text);
    return null;
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

/** The character position the engine's message names, if any. */
function statedPosition(message: string): number | undefined {
  const m = /at position (\d+)/.exec(message);
  return m ? Number(m[1]) : undefined;
}

/**
 * True when `prefix` could still be the start of valid JSON: it parses, or it fails only because
 * it ends (at its end, or with "Unexpected end"). Monotone in the prefix length, so bisectable.
 */
function soFarSoGood(prefix: string): boolean {
  const e = parseError(prefix);
  if (!e) return true;
  const at = statedPosition(e.message);
  return /Unexpected end/.test(e.message) || (at !== undefined && at >= prefix.length);
}

/** The first position where no continuation could make the text valid (about 20 parses for 1 MB). */
function bisectPosition(text: string): number {
  let good = 0;
  let bad = text.length;
  while (bad - good > 1) {
    const mid = (good + bad) >> 1;
    if (soFarSoGood(text.slice(0, mid))) good = mid;
    else bad = mid;
  }
  return bad - 1;
}

/** 1-based line and column of a character position (a column counts UTF-16 units, as editors' cursors do). */
export function lineAndColumn(text: string, position: number): { line: number; column: number } {
  const before = text.slice(0, position);
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/**
 * What is wrong with `text` as JSON (or as a JSON object when `object` is set), or null when
 * nothing is. Blank text is fine: settings and channel fields store '' for "not set".
 */
export function jsonProblem(text: string, opts: { object?: boolean } = {}): JsonProblem | null {
  if (text.trim() === '') return null;
  const e = parseError(text);
  if (!e) {
    if (!opts.object) return null;
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return null;
    const start = text.length - text.trimStart().length;
    return { reason: 'not_object', ...lineAndColumn(text, start), char: text[start] ?? '' };
  }
  const reason = REASONS.find(([re]) => re.test(e.message))?.[1] ?? 'other';
  // Firefox names the line and column itself. Newer V8 (Node 24, current Chrome) names them too, after the
  // position, but counted from where it stopped (a blank line below a missing '}'): its position is read below.
  const firefox = statedPosition(e.message) == null ? /line (\d+) column (\d+)/.exec(e.message) : null;
  if (firefox) {
    const line = Number(firefox[1]);
    const column = Number(firefox[2]);
    return { reason, line, column, char: text.split('\n')[line - 1]?.[column - 1] ?? '' };
  }
  const found = reason === 'end' ? text.length : (statedPosition(e.message) ?? bisectPosition(text));
  // A mistake found at the end (a missing '}') is pointed at just after the last character, not on a blank line below.
  const position = Math.min(found, text.trimEnd().length);
  return { reason, ...lineAndColumn(text, position), char: text[position] ?? '' };
}
