import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, PasswordInput, Radio, Skeleton, Stack, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import {
  DEFAULT_QUOTA_WARNING_THRESHOLD,
  type NotifyType,
  QUOTA_WARNING_PRESET_UNITS,
} from '../../../../shared/schemas/user-setting.ts';
import { QuotaInput } from '../../../components/QuotaInput.tsx';
import { useUserSetting } from './useUserSetting.ts';

/** Spec: the form falls back to 100000 until the server's value has loaded. */
const INITIAL_THRESHOLD = 100_000;

/** Quota warning: how to be told (e-mail or webhook) and below which quota. */
export function NotificationSettings() {
  const { t } = useLingui();
  const { setting, loading, saving, save } = useUserSetting();
  const [type, setType] = useState<NotifyType>('email');
  const [threshold, setThreshold] = useState<number | string>(INITIAL_THRESHOLD);
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [email, setEmail] = useState('');
  const [saveTried, setSaveTried] = useState(false);

  useEffect(() => {
    if (!setting) return;
    setType(setting.notify_type);
    setThreshold(setting.quota_warning_threshold || DEFAULT_QUOTA_WARNING_THRESHOLD);
    setUrl(setting.webhook_url);
    setSecret(setting.webhook_secret);
    setEmail(setting.notification_email);
  }, [setting]);

  if (loading) return <Skeleton h={160} />;

  // An empty URL is flagged once Save was pressed (before that the field is just not filled in yet).
  const urlError =
    type === 'webhook' && (url !== '' || saveTried) && !/^https:\/\//i.test(url)
      ? t`Webhook URL must start with https://`
      : null;
  const thresholdError = !(Number(threshold) > 0) ? t`The threshold must be greater than 0` : null;
  const submit = () => {
    setSaveTried(true);
    if (urlError || thresholdError || (type === 'webhook' && url === '')) return;
    save({
      notify_type: type,
      quota_warning_threshold: Number(threshold),
      webhook_url: url.trim(),
      webhook_secret: secret,
      notification_email: email.trim(),
    });
  };

  return (
    <Stack gap="md" maw={640}>
      <Radio.Group label={t`Notify me by`} value={type} onChange={(v) => setType(v as NotifyType)}>
        <Group mt="xs">
          <Radio value="email" label={t`E-mail`} />
          <Radio value="webhook" label={t`Webhook`} />
        </Group>
      </Radio.Group>
      <QuotaInput
        label={t`Quota warning threshold`}
        description={t`You are told once when a request takes your quota below this`}
        value={threshold}
        onChange={setThreshold}
        min={1}
        error={thresholdError}
        presetUnits={QUOTA_WARNING_PRESET_UNITS}
        data-testid="quota-warning-threshold"
      />
      {type === 'webhook' ? (
        <>
          <TextInput
            label={t`Webhook URL`}
            placeholder="https://example.com/hooks/quota"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            error={urlError}
            required
          />
          <PasswordInput
            label={t`Webhook secret`}
            description={t`Requests carry X-Webhook-Signature: the hex HMAC-SHA256 of the body with this secret`}
            value={secret}
            onChange={(e) => setSecret(e.currentTarget.value)}
            autoComplete="new-password"
          />
        </>
      ) : (
        <TextInput
          label={t`Notification e-mail`}
          description={t`Empty means the e-mail address bound to your account`}
          placeholder="me@example.com"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
      )}
      <Group>
        <Button loading={saving} onClick={submit}>
          <Trans>Save</Trans>
        </Button>
      </Group>
    </Stack>
  );
}
