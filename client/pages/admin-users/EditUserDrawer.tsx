import { useLingui } from '@lingui/react/macro';
import { Divider, Drawer, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { MAX_DISPLAY_NAME_LENGTH, MAX_USERNAME_LENGTH, MIN_PASSWORD_LENGTH } from '../../../shared/constants.ts';
import { FormFooter } from '../../components/FormFooter.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import { QuotaInput } from '../../components/QuotaInput.tsx';
import { renderQuota } from '../../lib/format.ts';
import { trpc } from '../../trpc.ts';
import { BoundAccounts } from './BoundAccounts.tsx';
import { UserSubscriptions } from './UserSubscriptions.tsx';
import type { UserRow } from './types.ts';

interface Values {
  username: string;
  display_name: string;
  password: string;
  group: string;
  quota: number | '';
  add_quota: number | '';
}

interface Props {
  user: UserRow | null;
  groups: string[];
  onClose: () => void;
}

/** Edit username, display name, password, group and quota; add-quota may be negative. */
export function EditUserDrawer({ user, groups, onClose }: Props) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const form = useForm<Values>({
    initialValues: { username: '', display_name: '', password: '', group: '', quota: 0, add_quota: 0 },
  });
  const { setValues, resetDirty } = form;
  useEffect(() => {
    if (!user) return;
    setValues({ ...user, password: '', add_quota: 0 });
    resetDirty();
  }, [user, setValues, resetDirty]);

  const update = trpc.users.update.useMutation({
    onSuccess: () => {
      showSuccess(t`User updated`);
      onClose();
      void utils.users.list.invalidate();
    },
    onError: showError,
  });
  const submit = form.onSubmit((v) => {
    if (!user) return;
    update.mutate({
      id: user.id,
      username: v.username.trim(),
      display_name: v.display_name,
      password: v.password || undefined,
      group: v.group,
      quota: Math.trunc(Number(v.quota)) || 0,
      add_quota: Math.trunc(Number(v.add_quota)) || undefined,
    });
  });
  const values = form.getValues();
  const groupOptions = [...new Set([...groups, values.group].filter(Boolean))];

  return (
    <Drawer opened={user !== null} onClose={onClose} position="right" title={t`Edit user`} size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput label={t`Username`} maxLength={MAX_USERNAME_LENGTH} {...form.getInputProps('username')} />
          <TextInput
            label={t`Display name`}
            maxLength={MAX_DISPLAY_NAME_LENGTH}
            {...form.getInputProps('display_name')}
          />
          <PasswordInput
            label={t`Password`}
            placeholder={t`Leave empty to keep; at least ${MIN_PASSWORD_LENGTH} characters`}
            autoComplete="new-password"
            {...form.getInputProps('password')}
          />
          <Select label={t`Group`} data={groupOptions} searchable {...form.getInputProps('group')} />
          <QuotaInput
            label={t`Quota`}
            min={0}
            disabled={Number(values.add_quota) !== 0}
            data-testid="user-quota"
            {...form.getInputProps('quota')}
          />
          <QuotaInput
            label={t`Add quota`}
            description={
              Number(values.add_quota)
                ? t`${renderQuota(Number(values.add_quota))} will be added on save; negative numbers deduct`
                : t`Negative numbers deduct; when set, it replaces the quota above`
            }
            allowNegative
            data-testid="add-quota"
            {...form.getInputProps('add_quota')}
          />
          {user && (
            <>
              <Divider label={t`Bound accounts`} labelPosition="left" />
              <BoundAccounts user={user} />
              <Divider label={t`Subscriptions`} labelPosition="left" />
              <UserSubscriptions userId={user.id} />
            </>
          )}
          <FormFooter sticky onCancel={onClose} loading={update.isPending} />
          <Text size="xs" c="dimmed" ta="right">
            ID {user?.id}
          </Text>
        </Stack>
      </form>
    </Drawer>
  );
}
