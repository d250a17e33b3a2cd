import { useLingui } from '@lingui/react/macro';
import { NumberInput, PasswordInput, Select, Switch, Textarea, TextInput } from '@mantine/core';
import { JsonTextarea } from '../../../components/JsonTextarea.tsx';
import { QuotaInput } from '../../../components/QuotaInput.tsx';
import { renderQuota } from '../../../lib/format.ts';
import { checkField, type FieldDef } from './fields.ts';
import type { OptionsForm } from './useOptionsForm.ts';

/** One settings input bound to the section's form; shows the spec's messages under the field. */
export function FieldInput({ field, form }: { field: FieldDef; form: OptionsForm }) {
  const { t, i18n } = useLingui();
  const value = form.values[field.key] ?? '';
  const label = i18n._(field.label);
  const description = field.description ? i18n._(field.description) : undefined;
  const disabled = field.disabledWhen?.(form.values) ?? false;
  const problem = checkField(field, value);
  const min = field.min ?? '';
  const max = field.max ?? '';
  // JSON fields name their mistake themselves (JsonTextarea).
  const error =
    problem === 'number'
      ? t`Please enter a number`
      : problem === 'range'
        ? field.kind === 'quota'
          ? t`Must be at least ${renderQuota(field.min ?? 0)}`
          : field.min !== undefined && field.max !== undefined
            ? t`Must be between ${min} and ${max}`
            : field.min !== undefined
              ? field.decimals === 0
                ? t`Must be an integer of at least ${min}`
                : t`Must be at least ${min}`
              : t`Must be at most ${max}`
        : undefined;
  const common = { label, description, disabled, 'data-option': field.key };
  switch (field.kind) {
    case 'switch':
      return (
        <Switch
          {...common}
          checked={value === 'true'}
          onChange={(e) => form.set(field.key, String(e.currentTarget.checked))}
          mt="xs"
        />
      );
    case 'number':
      return (
        <NumberInput
          {...common}
          value={value === '' ? '' : Number.isFinite(Number(value)) ? Number(value) : value}
          min={field.min}
          max={field.max}
          step={field.step}
          decimalScale={field.decimals}
          allowDecimal={field.decimals !== 0}
          onChange={(v) => form.set(field.key, String(v))}
          error={error}
        />
      );
    case 'quota':
      return (
        <QuotaInput
          {...common}
          value={value}
          min={field.min}
          max={field.max}
          step={field.step}
          onChange={(q) => form.set(field.key, String(q))}
          error={error}
          data-testid={`option-${field.key}`}
        />
      );
    case 'json':
      return (
        <JsonTextarea
          {...common}
          value={value}
          onChange={(v) => form.set(field.key, v)}
          minRows={field.rows ?? 4}
          maxRows={16}
        />
      );
    case 'textarea':
      return (
        <Textarea
          {...common}
          value={value}
          placeholder={field.placeholder}
          onChange={(e) => form.set(field.key, e.currentTarget.value)}
          autosize
          minRows={field.rows ?? 3}
          maxRows={14}
        />
      );
    case 'select':
      return (
        <Select
          {...common}
          value={value}
          allowDeselect={false}
          data={(field.choices ?? []).map((c) => ({ value: c.value, label: i18n._(c.label) }))}
          onChange={(v) => v !== null && form.set(field.key, v)}
        />
      );
    case 'password':
      return (
        <PasswordInput
          {...common}
          value={value}
          placeholder={field.secret ? t`Saved values are not shown; type to replace` : field.placeholder}
          onChange={(e) => form.set(field.key, e.currentTarget.value)}
          autoComplete="new-password"
        />
      );
    default:
      return (
        <TextInput
          {...common}
          value={value}
          placeholder={field.placeholder}
          onChange={(e) => form.set(field.key, e.currentTarget.value)}
        />
      );
  }
}
