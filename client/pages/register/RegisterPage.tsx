import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Anchor, Badge, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconGift, IconLock } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { MAX_USERNAME_LENGTH, MIN_PASSWORD_LENGTH } from '../../../shared/constants.ts';
import { AuthCard } from '../../components/AuthCard.tsx';
import { anyOAuthEnabled, OAuthButtons } from '../../components/OAuthButtons.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import { useStatus } from '../../lib/status-context.tsx';
import { readString, writeString } from '../../lib/storage.ts';
import { trpc } from '../../trpc.ts';
import { TurnstileWidget, useTurnstile } from '../../components/Turnstile.tsx';
import { EmailCodeFields } from '../../components/EmailCodeFields.tsx';

interface RegisterValues {
  username: string;
  password: string;
  password2: string;
  email: string;
  verification_code: string;
}

/** The invite code from `?aff=`, kept so that a later visit to /register still carries it. */
function useAffCode(): string {
  const [params] = useSearchParams();
  const fromUrl = params.get('aff');
  if (fromUrl) writeString('aff', fromUrl);
  return fromUrl ?? readString('aff') ?? '';
}

export default function RegisterPage() {
  const { t } = useLingui();
  const status = useStatus();
  const navigate = useNavigate();
  const aff = useAffCode();
  const withEmail = status.email_verification;
  const form = useForm<RegisterValues>({
    initialValues: { username: '', password: '', password2: '', email: '', verification_code: '' },
    validate: {
      username: (v) => (v.trim() ? null : t`Please enter a username`),
      password: (v) =>
        v.length >= MIN_PASSWORD_LENGTH ? null : t`Password must be at least ${MIN_PASSWORD_LENGTH} characters`,
      password2: (v, all) => (v === all.password ? null : t`The two passwords do not match`),
      email: (v) => (!withEmail || v.trim() ? null : t`Please enter your e-mail`),
      verification_code: (v) => (!withEmail || v.trim() ? null : t`Please enter the e-mail verification code`),
    },
  });
  const human = useTurnstile();
  const registered = () => {
    showSuccess(t`Registration successful`);
    navigate('/login');
  };
  const register = trpc.auth.register.useMutation({ onSuccess: registered, onError: showError });

  // Closing password registration leaves sign-up through the enabled providers (accounts spec §1).
  const withPassword = status.register_enabled && status.password_register_enabled;
  const submit = (v: RegisterValues) => {
    if (!human.ready) return showError(t`Please wait a moment, human verification is in progress...`);
    const payload = {
      username: v.username.trim(),
      password: v.password,
      password2: v.password2,
      aff_code: aff || undefined,
      ...(withEmail ? { email: v.email.trim(), verification_code: v.verification_code.trim() } : {}),
    };
    // With human verification on, the widget's token goes with the form (api-contract §0.3).
    register.mutate({ ...payload, turnstile: human.enabled ? human.token : undefined });
  };

  return (
    <AuthCard
      title={<Trans>Create your account</Trans>}
      subtitle={<Trans>Get an API key for {status.system_name} in a minute.</Trans>}
      footer={
        <Trans>
          Already have an account?{' '}
          <Anchor component={Link} to="/login" size="sm">
            Log in
          </Anchor>
        </Trans>
      }
    >
      {!status.register_enabled ? (
        <Alert color="gray" icon={<IconLock size={18} />} data-testid="register-closed">
          {t`The administrator has closed registration.`}
        </Alert>
      ) : !withPassword ? (
        <Alert color="gray" icon={<IconLock size={18} />} data-testid="password-register-closed">
          {anyOAuthEnabled(status)
            ? t`The administrator has closed registration with a password. Sign up with one of the options below.`
            : t`The administrator has closed registration with a password.`}
        </Alert>
      ) : (
        <form onSubmit={form.onSubmit(submit)} noValidate>
          <Stack gap="md">
            {aff && (
              <Group gap={6}>
                <IconGift size={16} />
                <Badge variant="light" tt="none" data-testid="aff">{t`Invite code ${aff}`}</Badge>
              </Group>
            )}
            <TextInput
              label={t`Username`}
              placeholder={t`Username, at most ${MAX_USERNAME_LENGTH} characters`}
              maxLength={MAX_USERNAME_LENGTH}
              autoComplete="username"
              {...form.getInputProps('username')}
            />
            <PasswordInput
              label={t`Password`}
              placeholder={t`At least ${MIN_PASSWORD_LENGTH} characters`}
              autoComplete="new-password"
              {...form.getInputProps('password')}
            />
            <PasswordInput
              label={t`Confirm password`}
              autoComplete="new-password"
              {...form.getInputProps('password2')}
            />
            {withEmail && <EmailCodeFields form={form} turnstile={human.token} />}
            <TurnstileWidget state={human} />
            <Button type="submit" fullWidth loading={register.isPending}>
              {t`Register`}
            </Button>
          </Stack>
        </form>
      )}
      {status.register_enabled && <OAuthButtons aff={aff} />}
    </AuthCard>
  );
}
