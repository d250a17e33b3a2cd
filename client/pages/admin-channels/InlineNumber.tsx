import { NumberInput } from '@mantine/core';
import { useEffect, useState } from 'react';

interface Props {
  /** null: the tag's channels differ (issue 45); the box stays empty, showing `mixed`, until a value is typed. */
  value: number | null;
  min: number;
  label: string;
  /** What an empty box shows for mixed values: their range ("0–10"). */
  mixed?: string;
  onSave: (value: number) => void;
}

/**
 * A small number editor saved on blur or Enter when the value changed. Mixed values are never written
 * back unasked: focusing and leaving the empty box saves nothing.
 */
export function InlineNumber({ value, min, label, mixed, onSave }: Props) {
  const [draft, setDraft] = useState<number | string>(value ?? '');
  useEffect(() => setDraft(value ?? ''), [value]);
  const commit = () => {
    const n = Math.trunc(Number(draft));
    if (!Number.isFinite(n) || draft === '') return setDraft(value ?? '');
    const next = Math.max(min, n);
    setDraft(next);
    if (next !== value) onSave(next);
  };
  return (
    <NumberInput
      size="xs"
      w={64}
      aria-label={mixed && value === null ? `${label}: ${mixed}` : label}
      placeholder={value === null ? mixed : undefined}
      title={value === null ? mixed : undefined}
      data-mixed={value === null || undefined}
      value={draft}
      min={min}
      allowDecimal={false}
      hideControls
      onChange={setDraft}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.currentTarget.blur();
      }}
    />
  );
}
