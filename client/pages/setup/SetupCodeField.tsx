import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Code, Stack, TextInput } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';

interface Props {
  value: string;
  onChange: (value: string) => void;
  /** The server's refusal of the code (missing or wrong), shown under the field. */
  error?: string;
}

/**
 * The setup code (issue 39): a browser that is not on the server itself must prove it belongs to the
 * operator before it may create the administrator. The code is printed in the server's log at start.
 */
export function SetupCodeField({ value, onChange, error }: Props) {
  const { t } = useLingui();
  return (
    <Alert
      color="blue"
      variant="light"
      icon={<IconKey size={18} />}
      title={t`Setup code`}
      mb="md"
      data-testid="setup-code"
    >
      <Stack gap="xs">
        <div>
          <Trans>
            This page is not open on the server itself, so setup asks for the code the server printed in its log when it
            started, on a line beginning <Code>setup code:</Code> (for Docker: <Code>docker logs switchyard</Code>).
          </Trans>
        </div>
        <TextInput
          aria-label={t`Setup code`}
          placeholder="XXXX-XXXX"
          autoComplete="off"
          spellCheck={false}
          maxLength={16}
          value={value}
          error={error}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      </Stack>
    </Alert>
  );
}
