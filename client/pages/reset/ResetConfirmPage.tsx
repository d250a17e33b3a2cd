import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Code, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { AuthCard } from '../../components/AuthCard.tsx';
import { copyText } from '../../components/clipboard.tsx';
import { restPost } from '../../lib/rest.ts';
import { showError } from '../../lib/errors.ts';

/**
 * /user/reset — the link from the reset mail. The reset runs on a click, not on
 * load, so mail scanners that open links do not use up the single-use token.
 */
export default function ResetConfirmPage() {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const token = params.get('token') ?? '';
  const [busy, setBusy] = useState(false);
  const [password, setPassword] = useState('');

  const confirm = async () => {
    setBusy(true);
    try {
      const value = await restPost<string>('/api/user/reset', { email, token });
      setPassword(value);
      await copyText(value, t`New password copied to the clipboard`);
    } catch (e) {
      showError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title={<Trans>Set a new password</Trans>}
      subtitle={<Trans>A new random password will be generated for {email}.</Trans>}
      footer={
        <Anchor component={Link} to="/login" size="sm">
          <Trans>Back to login</Trans>
        </Anchor>
      }
    >
      {!email || !token ? (
        <Alert color="red">{t`This reset link is incomplete. Request a new one.`}</Alert>
      ) : password ? (
        <Stack gap="sm">
          <Text size="sm">{t`Your new password (log in with it, then change it in Personal settings):`}</Text>
          <Code block data-testid="new-password" style={{ fontSize: 16 }}>
            {password}
          </Code>
          <Button variant="light" onClick={() => void copyText(password, t`New password copied to the clipboard`)}>
            {t`Copy again`}
          </Button>
          <Button component={Link} to="/login">
            {t`Go to login`}
          </Button>
        </Stack>
      ) : (
        <Button fullWidth loading={busy} onClick={() => void confirm()}>
          {t`Confirm password reset`}
        </Button>
      )}
    </AuthCard>
  );
}
