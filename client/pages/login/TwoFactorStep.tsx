import { useLingui } from '@lingui/react/macro';
import { Anchor, Button, Group, PinInput, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { showError } from '../../lib/errors.ts';
import type { StoredUser } from '../../lib/user.ts';
import { trpc } from '../../trpc.ts';

interface Props {
  onDone: (user: StoredUser) => void;
  onBack: () => void;
}

/**
 * The sign-in's second step for a user with two-factor on: the password was right but no session was
 * given yet; the 6-digit code of the authenticator app (or a backup code) completes it.
 */
export function TwoFactorStep({ onDone, onBack }: Props) {
  const { t } = useLingui();
  const [backup, setBackup] = useState(false);
  const [code, setCode] = useState('');
  const login = trpc.twoFactor.login.useMutation({ onSuccess: onDone, onError: showError });
  const submit = (value = code) => {
    if (!backup && !/^\d{6}$/.test(value)) return showError(t`The verification code must be 6 digits`);
    if (backup && value.replace(/[\s-]/g, '').length !== 8) return showError(t`A backup code has 8 characters`);
    login.mutate({ code: value });
  };
  const switchMode = () => {
    setBackup(!backup);
    setCode('');
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      noValidate
    >
      <Stack gap="md" data-testid="two-factor-step">
        <Text size="sm" c="dimmed">
          {backup
            ? t`Enter one of your backup codes. Each code works once.`
            : t`Enter the 6-digit code from your authenticator app.`}
        </Text>
        {backup ? (
          <TextInput
            label={t`Backup code`}
            placeholder="XXXX-XXXX"
            autoComplete="one-time-code"
            autoFocus
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
          />
        ) : (
          <Group justify="center">
            <PinInput
              length={6}
              type="number"
              oneTimeCode
              autoFocus
              aria-label={t`Verification code`}
              value={code}
              onChange={setCode}
              onComplete={(value) => submit(value)}
            />
          </Group>
        )}
        <Button type="submit" fullWidth loading={login.isPending}>
          {t`Verify and log in`}
        </Button>
        <Group justify="space-between">
          <Anchor component="button" type="button" size="sm" onClick={switchMode}>
            {backup ? t`Use the authenticator app` : t`Use a backup code`}
          </Anchor>
          <Anchor component="button" type="button" size="sm" c="dimmed" onClick={onBack}>
            {t`Back to login`}
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
