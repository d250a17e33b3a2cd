import { useLingui } from '@lingui/react/macro';
import { Button, Group, type TextareaProps } from '@mantine/core';
import { JsonTextarea } from '../../components/JsonTextarea.tsx';
import { jsonProblem } from '../../lib/json-problem.ts';

interface Props extends Omit<TextareaProps, 'onChange' | 'value'> {
  value: string;
  onChange: (v: string) => void;
  /** Inserted by the "example" button. */
  example?: string;
}

/** A JSON object editor (the console's JsonTextarea: a mistake named by line and column), with format and example buttons. */
export function JsonField({ value, onChange, example, error, ...rest }: Props) {
  const { t } = useLingui();
  const valid = !jsonProblem(value, { object: true });
  const format = () => {
    if (!value.trim() || !valid) return;
    onChange(JSON.stringify(JSON.parse(value), null, 2));
  };
  return (
    <div>
      <JsonTextarea object value={value} onChange={onChange} error={error} {...rest} />
      <Group gap={6} mt={4}>
        {example && (
          <Button size="compact-xs" variant="subtle" onClick={() => onChange(example)}>
            {t`Fill example`}
          </Button>
        )}
        <Button size="compact-xs" variant="subtle" onClick={format} disabled={!value.trim() || !valid}>
          {t({ message: 'Format', context: 'format JSON' })}
        </Button>
      </Group>
    </div>
  );
}
