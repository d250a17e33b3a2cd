import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Grid, Group, Skeleton, Switch, TagsInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { SectionFrame } from '../form/OptionsSection.tsx';
import { useOptionsForm } from '../form/useOptionsForm.ts';

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

const split = (v: string) =>
  v
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);

/** Registration e-mail domains: switches and the whitelist (each entry a valid domain, no duplicates). */
export function EmailDomainSection() {
  const { t } = useLingui();
  const form = useOptionsForm([
    'EmailDomainRestrictionEnabled',
    'EmailAliasRestrictionEnabled',
    'EmailDomainWhitelist',
  ]);
  const domains = split(form.values.EmailDomainWhitelist ?? '');

  const change = (next: string[]) => {
    const added = next.filter((d) => !domains.includes(d) || next.indexOf(d) !== next.lastIndexOf(d));
    for (const raw of added) {
      const d = raw.trim().toLowerCase();
      if (!DOMAIN.test(d)) {
        notifications.show({ color: 'red', message: t`"${d}" is not a valid domain, for example example.com` });
        return;
      }
      if (domains.includes(d)) {
        notifications.show({ color: 'red', message: t`"${d}" is already in the list` });
        return;
      }
    }
    form.set('EmailDomainWhitelist', next.map((d) => d.trim().toLowerCase()).join(','));
  };

  return (
    <SectionFrame title={<Trans>E-mail domain restriction</Trans>} testId="section-email-domains">
      {form.loaded ? (
        <Grid gap="md">
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <Switch
              label={t`Only allow whitelisted e-mail domains`}
              checked={form.values.EmailDomainRestrictionEnabled === 'true'}
              onChange={(e) => form.set('EmailDomainRestrictionEnabled', String(e.currentTarget.checked))}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <Switch
              label={t`Refuse e-mail aliases (name+tag@)`}
              checked={form.values.EmailAliasRestrictionEnabled === 'true'}
              onChange={(e) => form.set('EmailAliasRestrictionEnabled', String(e.currentTarget.checked))}
            />
          </Grid.Col>
          <Grid.Col span={12}>
            <TagsInput
              label={t`Allowed domains`}
              description={t`Press Enter after each domain`}
              value={domains}
              onChange={change}
              allowDuplicates
              splitChars={[',', ' ']}
              clearable
              data-testid="email-whitelist"
            />
          </Grid.Col>
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
