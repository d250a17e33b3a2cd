import { NumberInput } from '@mantine/core';
import { useEffect, useState } from 'react';

interface Props {
  value: number;
  min: number;
  label: string;
  onSave: (value: number) => void;
}

/** A small number editor saved on blur or Enter when the value changed. */
export function InlineNumber({ value, min, label, onSave }: Props) {
  const [draft, setDraft] = useState<number | string>(value);
  useEffect(() => setDraft(value), [value]);
  const commit = () => {
    const n = Math.trunc(Number(draft));
    if (!Number.isFinite(n) || draft === '') return setDraft(value);
    const next = Math.max(min, n);
    setDraft(next);
    if (next !== value) onSave(next);
  };
  return (
    <NumberInput
      size="xs"
      w={64}
      aria-label={label}
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
