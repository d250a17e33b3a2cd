import { useLingui } from '@lingui/react/macro';
import { Textarea, type TextareaProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { type JsonProblem, jsonProblem } from '../lib/json-problem.ts';

/** A JSON problem as a sentence: "Invalid JSON at line 3, column 14: expected ',' or '}'". */
export function useJsonProblemText(): (p: JsonProblem) => string {
  const { t } = useLingui();
  return (p) => {
    // Punctuation goes in as values: in a message, quotes and braces are ICU syntax.
    const braces = '{ … }';
    if (p.reason === 'not_object') return t`Must be a JSON object, in braces: ${braces}`;
    const { line, column } = p;
    const [comma, brace, bracket, colon, backslash] = ["','", "'}'", "']'", "':'", '\\'];
    const quoted = `'${p.char}'`;
    const reasons: Record<Exclude<JsonProblem['reason'], 'not_object'>, string> = {
      comma_or_brace: t`expected ${comma} or ${brace}`,
      comma_or_bracket: t`expected ${comma} or ${bracket}`,
      property_name: t`expected a name in double quotes (or a comma too many before it)`,
      colon: t`expected ${colon}`,
      end: t`the text ends too early`,
      after_value: t`unexpected text after the end`,
      control_char: t`a line break or control character inside a string`,
      escape: t`an invalid escape (${backslash}) in a string`,
      unterminated_string: t`a string is not closed`,
      number: t`an invalid number`,
      token: t`unexpected character ${quoted}`,
      other: t`not valid here`,
    };
    const reason = reasons[p.reason];
    return t`Invalid JSON at line ${line}, column ${column}: ${reason}`;
  };
}

interface Props extends Omit<TextareaProps, 'onChange' | 'value' | 'error'> {
  value: string;
  onChange: (v: string) => void;
  /** Only a JSON object will do (mappings, overrides); otherwise any JSON value. */
  object?: boolean;
  /** A problem found elsewhere; a JSON mistake is shown when there is none. */
  error?: ReactNode;
}

/**
 * The console's JSON editor (settings and channel fields): monospace, and a mistake named under
 * the field with its line and column as it is typed. Blank is valid ("not set").
 */
export function JsonTextarea({ value, onChange, object, error, ...rest }: Props) {
  const describe = useJsonProblemText();
  const problem = jsonProblem(value, { object });
  return (
    <Textarea
      autosize
      minRows={2}
      maxRows={10}
      spellCheck={false}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error ?? (problem ? describe(problem) : undefined)}
      {...rest}
    />
  );
}
