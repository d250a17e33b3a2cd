import { useLingui } from '@lingui/react/macro';
import { Button, Group, Textarea, type TextareaProps } from '@mantine/core';
import { isJsonObjectText } from '../../../shared/schemas/channels.ts';

interface Props extends Omit<TextareaProps, 'onChange' | 'value'> {
  value: string;
  onChange: (v: string) => void;
  /** Inserted by the "example" button. */
  example?: string;
}

/** A JSON object editor: monospace, live validity hint, format and example buttons. */
export function JsonField({ value, onChange, example, error, ...rest }: Props) {
  const { t } = useLingui();
  const valid = isJsonObjectText(value);
  const format = () => {
    if (!value.trim() || !valid) return;
    onChange(JSON.stringify(JSON.parse(value), null, 2));
  };
  return (
    <div>
      <Textarea
        autosize
        minRows={2}
        maxRows={10}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        error={error ?? (valid ? undefined : t`Not valid JSON`)}
        {...rest}
      />
      <Group gap={6} mt={4}>
        {example && (
          <Button size="compact-xs" variant="subtle" onClick={() => onChange(example)}>
            {t`Fill example`}
          </Button>
        )}
        <Button size="compact-xs" variant="subtle" onClick={format} disabled={!value.trim() || !valid}>
          {t`Format`}
        </Button>
      </Group>
    </div>
  );
}
