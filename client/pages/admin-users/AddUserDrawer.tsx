import { useLingui } from '@lingui/react/macro';
import { Drawer, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MAX_DISPLAY_NAME_LENGTH, MAX_USERNAME_LENGTH, MIN_PASSWORD_LENGTH } from '../../../shared/constants.ts';
import { FormFooter } from '../../components/FormFooter.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';

export function AddUserDrawer({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const form = useForm({ initialValues: { username: '', display_name: '', password: '' } });
  const create = trpc.users.create.useMutation({
    onSuccess: () => {
      showSuccess(t`User created`);
      form.reset();
      onClose();
      void utils.users.list.invalidate();
    },
    onError: showError,
  });
  const submit = form.onSubmit((v) => {
    if (!v.username.trim() || !v.password) {
      showError(t`Username and password cannot be empty!`);
      return;
    }
    create.mutate({ username: v.username.trim(), password: v.password, display_name: v.display_name || undefined });
  });
  return (
    <Drawer opened={opened} onClose={onClose} position="right" title={t`Add user`} size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t`Username`}
            placeholder={t`At most ${MAX_USERNAME_LENGTH} characters`}
            maxLength={MAX_USERNAME_LENGTH}
            autoComplete="off"
            {...form.getInputProps('username')}
          />
          <TextInput
            label={t`Display name`}
            placeholder={t`Optional`}
            maxLength={MAX_DISPLAY_NAME_LENGTH}
            {...form.getInputProps('display_name')}
          />
          <PasswordInput
            label={t`Password`}
            placeholder={t`At least ${MIN_PASSWORD_LENGTH} characters`}
            autoComplete="new-password"
            {...form.getInputProps('password')}
          />
          <FormFooter sticky onCancel={onClose} label={t`Create`} loading={create.isPending} />
        </Stack>
      </form>
    </Drawer>
  );
}
