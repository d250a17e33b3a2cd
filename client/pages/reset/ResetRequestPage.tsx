import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { AuthCard } from '../../components/AuthCard.tsx';
import { restGet, turnstileQuery } from '../../lib/rest.ts';
import { showError, showSuccess } from '../../lib/errors.ts';
import { TurnstileWidget, useTurnstile } from '../../components/Turnstile.tsx';

const RETRY_SECONDS = 30;

/** /reset — asks for the address the reset link is mailed to (admin spec §2). */
export default function ResetRequestPage() {
  const { t } = useLingui();
  const human = useTurnstile();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [countdown, setCountdown] = useState(0);

  useEffect(() => {
    if (countdown <= 0) return;
    const id = window.setTimeout(() => setCountdown((c) => c - 1), 1000);
    return () => window.clearTimeout(id);
  }, [countdown]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!email.trim()) return showError(t`Please enter your e-mail`);
    if (!human.ready) return showError(t`Please wait a moment, human verification is in progress...`);
    setBusy(true);
    try {
      await restGet(`/api/reset_password?email=${encodeURIComponent(email.trim())}${turnstileQuery(human.token, '&')}`);
      showSuccess(t`Reset e-mail sent, please check your inbox`);
      setCountdown(RETRY_SECONDS);
    } catch (err) {
      showError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title={<Trans>Reset your password</Trans>}
      subtitle={<Trans>We will e-mail you a link to set a new password.</Trans>}
      footer={
        <Anchor component={Link} to="/login" size="sm">
          <Trans>Back to login</Trans>
        </Anchor>
      }
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="md">
          <TextInput
            label={t`E-mail`}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          <TurnstileWidget state={human} />
          <Button type="submit" fullWidth loading={busy} disabled={countdown > 0}>
            {countdown > 0 ? t`Retry (${countdown}s)` : t`Send reset e-mail`}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
