import type { MessageDescriptor } from '@lingui/core';
import { jsonProblem } from '../../../lib/json-problem.ts';

/*
 * A settings field as data: the key (the option name the server knows), how to edit
 * it, and the limits the spec gives. Sections are lists of these, so each section
 * file reads like the spec's list of settings.
 */

/** 'quota': an integer quota option, typed in the site's display unit (QuotaInput). */
export type FieldKind = 'switch' | 'number' | 'quota' | 'text' | 'password' | 'textarea' | 'json' | 'select';

export type Values = Record<string, string>;

export interface FieldDef {
  key: string;
  kind: FieldKind;
  label: MessageDescriptor;
  description?: MessageDescriptor;
  placeholder?: string;
  min?: number;
  max?: number;
  step?: number;
  /** Decimal places allowed in number inputs (0 = integers). */
  decimals?: number;
  /** Select choices. */
  choices?: { value: string; label: MessageDescriptor }[];
  /** Grid columns out of 12 on wide screens (default: 4 for small inputs, 12 for text areas). */
  span?: number;
  /** Disabled while another value says so (e.g. the rebate percentage without the rebate switch). */
  disabledWhen?: (values: Values) => boolean;
  /** Secret keys are never sent by the server; the input starts empty and is saved only when typed. */
  secret?: boolean;
  /** Rows for text areas. */
  rows?: number;
}

const isBlank = (v: string) => v.trim() === '';

/** The client-side check the spec asks for; the server checks again and has the last word. */
export function checkField(f: FieldDef, value: string): 'json' | 'number' | 'range' | null {
  if (f.kind === 'json') return jsonProblem(value) ? 'json' : null;
  if (f.kind === 'number' || f.kind === 'quota') {
    if (isBlank(value) || !Number.isFinite(Number(value))) return 'number';
    const n = Number(value);
    if ((f.min !== undefined && n < f.min) || (f.max !== undefined && n > f.max)) return 'range';
    if ((f.decimals === 0 || f.kind === 'quota') && !Number.isInteger(n)) return 'range';
  }
  return null;
}
