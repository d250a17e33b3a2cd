import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Grid, Group, Skeleton, Switch } from '@mantine/core';
import { modals } from '@mantine/modals';
import { SectionFrame } from '../form/OptionsSection.tsx';
import { useOptionsForm } from '../form/useOptionsForm.ts';
import { loginFields } from './system-fields.ts';

/** Sign-in and registration switches; turning password sign-in off asks first (cancel puts it back). */
export function LoginSwitches() {
  const { t, i18n } = useLingui();
  const form = useOptionsForm(loginFields.map((f) => f.key));

  const toggle = (key: string, on: boolean) => {
    form.set(key, String(on));
    if (key === 'PasswordLoginEnabled' && !on) {
      // Cancel, the close button and a click outside all put the switch back.
      let confirmed = false;
      modals.openConfirmModal({
        title: t`Turn off password sign-in?`,
        children: t`Users who have no other way to sign in, you included, will be locked out. Make sure another sign-in method works first.`,
        labels: { confirm: t`Turn off`, cancel: t`Cancel` },
        confirmProps: { color: 'red' },
        onConfirm: () => {
          confirmed = true;
        },
        onClose: () => {
          if (!confirmed) form.set(key, 'true');
        },
      });
    }
  };

  return (
    <SectionFrame title={<Trans>Sign-in and registration</Trans>} testId="section-login">
      {form.loaded ? (
        <Grid gap="md">
          {loginFields.map((f) => (
            <Grid.Col key={f.key} span={{ base: 12, sm: 6 }}>
              <Switch
                label={i18n._(f.label)}
                checked={form.values[f.key] === 'true'}
                onChange={(e) => toggle(f.key, e.currentTarget.checked)}
                data-option={f.key}
              />
            </Grid.Col>
          ))}
        </Grid>
      ) : (
        <Skeleton h={60} />
      )}
      <Group>
        <Button loading={form.saving} onClick={() => void form.save()}>
          <Trans>Save</Trans>
        </Button>
      </Group>
    </SectionFrame>
  );
}
