import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Divider, Group, PasswordInput, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MAX_USERNAME_LENGTH, MIN_PASSWORD_LENGTH } from '../../../shared/constants.ts';
import { PresetPricesChoice } from './PresetPricesChoice.tsx';

export type UsageMode = 'default' | 'self' | 'demo';

export interface SetupValues {
  username: string;
  password: string;
  confirmPassword: string;
  mode: UsageMode;
  /** Keep the preset prices a fresh install ships (PresetPricesChoice). */
  keepPresets: boolean;
}

interface SetupFormProps {
  /** Username and passwords are asked only while no root account exists. */
  askAdmin: boolean;
  submitting: boolean;
  onSubmit: (values: SetupValues) => void;
}

export function SetupForm({ askAdmin, submitting, onSubmit }: SetupFormProps) {
  const { t } = useLingui();
  const form = useForm<SetupValues>({
    initialValues: { username: '', password: '', confirmPassword: '', mode: 'default', keepPresets: true },
    validate: askAdmin
      ? {
          username: (v) => (v.trim() ? null : t`Please enter the administrator username`),
          password: (v) =>
            v.length >= MIN_PASSWORD_LENGTH ? null : t`Password must be at least ${MIN_PASSWORD_LENGTH} characters`,
          confirmPassword: (v, all) => (v === all.password ? null : t`The two passwords do not match`),
        }
      : {},
  });

  const modes: { value: UsageMode; label: string; description: string }[] = [
    {
      value: 'default',
      label: t`Default mode`,
      description: t`For offering the gateway to many users: registration, quota and billing as configured.`,
    },
    {
      value: 'self',
      label: t`Self-use mode`,
      description: t`For personal use: models work without a price being set.`,
    },
    {
      value: 'demo',
      label: t`Demo site`,
      description: t`For showing the product: the site is marked as a demo.`,
    },
  ];

  return (
    <form onSubmit={form.onSubmit(onSubmit)} noValidate>
      <Stack gap="md">
        {askAdmin && (
          <>
            <Text fw={600} size="sm">
              <Trans>Administrator account</Trans>
            </Text>
            <TextInput
              label={t`Username`}
              placeholder={t`Admin username (at most ${MAX_USERNAME_LENGTH} characters)`}
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
              {...form.getInputProps('confirmPassword')}
            />
            <Divider />
          </>
        )}
        <Radio.Group label={t`Usage mode`} {...form.getInputProps('mode')}>
          <Stack gap="xs" mt="xs">
            {modes.map((m) => (
              <Radio.Card key={m.value} value={m.value} radius="md" p="sm" data-testid={`mode-${m.value}`}>
                <Group wrap="nowrap" align="flex-start" gap="sm">
                  <Radio.Indicator mt={2} />
                  <div>
                    <Text fw={600} size="sm">
                      {m.label}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {m.description}
                    </Text>
                  </div>
                </Group>
              </Radio.Card>
            ))}
          </Stack>
        </Radio.Group>
        {/* Only a root created here is signed in to clear them right after. */}
        {askAdmin && <PresetPricesChoice {...form.getInputProps('keepPresets', { type: 'checkbox' })} />}
        <Button type="submit" loading={submitting} fullWidth mt="xs">
          <Trans>Initialise system</Trans>
        </Button>
      </Stack>
    </form>
  );
}
