import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconClockExclamation, IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AuthCard } from '../../components/AuthCard.tsx';
import { OAuthButtons } from '../../components/OAuthButtons.tsx';
import { errorMessage, showError, showSuccess } from '../../lib/errors.ts';
import { safeReturnTo } from '../../lib/navigation.ts';
import { rememberLogin } from '../../lib/session.ts';
import { useStatus } from '../../lib/status-context.tsx';
import { trpc } from '../../trpc.ts';
import type { StoredUser } from '../../lib/user.ts';
import { TurnstileWidget, useTurnstile } from '../../components/Turnstile.tsx';
import { TwoFactorStep } from './TwoFactorStep.tsx';
import { PasskeyButton } from './PasskeyButton.tsx';

const DEFAULT_ROOT = { username: 'root', password: '123456' };

/** Username (or e-mail) and password sign-in (accounts spec §2). */
export default function LoginPage() {
  const { t } = useLingui();
  const status = useStatus();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const returnTo = safeReturnTo(params.get('returnTo'));
  const human = useTurnstile();
  const onLoggedIn = (user: StoredUser) => {
    rememberLogin(user);
    showSuccess(t`Login successful`);
    if (username === DEFAULT_ROOT.username && password === DEFAULT_ROOT.password)
      notifications.show({
        color: 'orange',
        autoClose: false,
        title: t`Default password in use`,
        message: t`You are using the default root password. Change it in Personal settings right away.`,
      });
    navigate(returnTo, { replace: true });
  };
  // Two-factor on: the password was right, the code comes next (no session until then).
  const [secondStep, setSecondStep] = useState(false);
  // A sign-in lock (too many wrong passwords) stays on the page with when to try again (issue 39).
  const [locked, setLocked] = useState<string | undefined>();
  const login = trpc.auth.login.useMutation({
    onMutate: () => setLocked(undefined),
    onSuccess: (data) => ('require_2fa' in data ? setSecondStep(true) : onLoggedIn(data)),
    onError: (e) => (e.data?.code === 'TOO_MANY_REQUESTS' ? setLocked(errorMessage(e)) : showError(e)),
  });

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!username.trim() || !password) {
      showError(t`Please enter username and password!`);
      return;
    }
    if (!human.ready) {
      showError(t`Please wait a moment, human verification is in progress...`);
      return;
    }
    // With human verification on, the widget's token goes with the credentials (api-contract §0.3).
    login.mutate({ username: username.trim(), password, turnstile: human.enabled ? human.token : undefined });
  };

  const canRegister = status.register_enabled && !status.self_use_mode_enabled;
  return (
    <AuthCard
      title={<Trans>Welcome back</Trans>}
      subtitle={<Trans>Sign in to {status.system_name}</Trans>}
      footer={
        canRegister && (
          <Trans>
            No account yet?{' '}
            <Anchor component={Link} to="/register" size="sm">
              Register
            </Anchor>
          </Trans>
        )
      }
    >
      <Stack gap="md">
        {params.get('expired') === 'true' && (
          <Alert color="orange" icon={<IconClockExclamation size={18} />} data-testid="expired">
            {t`Not logged in or login expired, please log in again`}
          </Alert>
        )}
        {locked && !secondStep && (
          <Alert color="red" icon={<IconLock size={18} />} data-testid="sign-in-locked">
            {locked}
          </Alert>
        )}
        {secondStep ? (
          <TwoFactorStep onDone={onLoggedIn} onBack={() => setSecondStep(false)} />
        ) : status.password_login_enabled ? (
          <form onSubmit={submit} noValidate>
            <Stack gap="md">
              <TextInput
                label={t`Username or e-mail`}
                placeholder={t`Username or e-mail`}
                autoComplete="username"
                value={username}
                onChange={(e) => setUsername(e.currentTarget.value)}
              />
              <PasswordInput
                label={
                  <Group justify="space-between" w="100%">
                    <span>{t`Password`}</span>
                  </Group>
                }
                placeholder={t`Password`}
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
              />
              {/* Password reset goes by e-mail: offered only when the gateway can send mail. */}
              {status.smtp_enabled && (
                <Group justify="flex-end" mt={-8}>
                  <Anchor component={Link} to="/reset" size="xs">
                    {t`Forgot password?`}
                  </Anchor>
                </Group>
              )}
              <TurnstileWidget state={human} />
              <Button type="submit" fullWidth loading={login.isPending}>
                {t`Log in`}
              </Button>
            </Stack>
          </form>
        ) : (
          <Alert color="gray" icon={<IconAlertTriangle size={18} />}>
            <Text size="sm">{t`Password login is turned off. Use one of the options below.`}</Text>
          </Alert>
        )}
        {status.passkey_login && <PasskeyButton onSignedIn={onLoggedIn} />}
      </Stack>
      <OAuthButtons />
    </AuthCard>
  );
}
