import { Trans, useLingui } from '@lingui/react/macro';
import { Button, Group, Skeleton, Stack, Switch } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { UserSetting } from '../../../../shared/schemas/user-setting.ts';
import { useUserSetting } from './useUserSetting.ts';

type BoolKey = 'accept_unset_model_ratio_model' | 'show_ip_in_logs';

/** One switch of the user's settings with its own Save. */
function SettingSwitch({ field, label, description }: { field: BoolKey; label: string; description: string }) {
  const { setting, loading, saving, save } = useUserSetting();
  const [on, setOn] = useState(false);
  useEffect(() => {
    if (setting) setOn(setting[field]);
  }, [setting, field]);
  if (loading) return <Skeleton h={60} />;
  return (
    <Stack gap="md" maw={640}>
      <Switch label={label} description={description} checked={on} onChange={(e) => setOn(e.currentTarget.checked)} />
      <Group>
        <Button loading={saving} onClick={() => save({ [field]: on } as Partial<UserSetting>)}>
          <Trans>Save</Trans>
        </Button>
      </Group>
    </Stack>
  );
}

export function PriceSettings() {
  const { t } = useLingui();
  return (
    <SettingSwitch
      field="accept_unset_model_ratio_model"
      label={t`Accept models without a set price`}
      description={t`Requests to such models are then billed at the default rate instead of being refused`}
    />
  );
}

export function OtherSettings() {
  const { t } = useLingui();
  return (
    <SettingSwitch
      field="show_ip_in_logs"
      label={t`Record my IP address in usage logs`}
      description={t`Shown to you (and administrators) in the usage log`}
    />
  );
}
