import { useLingui } from '@lingui/react/macro';
import { Button, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useEffect, useState } from 'react';
import { restGet, turnstileQuery } from '../lib/rest.ts';
import { showError, showSuccess } from '../lib/errors.ts';

const RESEND_SECONDS = 30;

interface EmailFields {
  email: string;
  verification_code: string;
}

/** E-mail and code, with a send button that waits 30 s before it can be used again. */
export function EmailCodeFields<T extends EmailFields>({
  form,
  turnstile,
}: {
  form: UseFormReturnType<T>;
  /** Human-verification token, needed for the mail when the check is on. */
  turnstile?: string;
}) {
  const { t } = useLingui();
  const [countdown, setCountdown] = useState(0);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (countdown <= 0) return;
    const id = window.setTimeout(() => setCountdown((c) => c - 1), 1000);
    return () => window.clearTimeout(id);
  }, [countdown]);

  const send = async () => {
    const email = form.getValues().email.trim();
    if (!email) {
      showError(t`Please enter your e-mail`);
      return;
    }
    setSending(true);
    try {
      await restGet(`/api/verification?email=${encodeURIComponent(email)}${turnstileQuery(turnstile, '&')}`);
      showSuccess(t`Verification code sent, please check your inbox`);
      setCountdown(RESEND_SECONDS);
    } catch (e) {
      showError(e);
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <TextInput
        label={t`E-mail`}
        type="email"
        autoComplete="email"
        rightSectionWidth={110}
        rightSection={
          <Button size="compact-xs" variant="light" loading={sending} disabled={countdown > 0} onClick={send}>
            {countdown > 0 ? t`Resend (${countdown}s)` : t`Send code`}
          </Button>
        }
        {...form.getInputProps('email')}
      />
      <TextInput label={t`Verification code`} {...form.getInputProps('verification_code')} />
    </>
  );
}
