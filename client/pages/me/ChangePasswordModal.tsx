import { useLingui } from '@lingui/react/macro';
import { Modal, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MIN_PASSWORD_LENGTH } from '../../../shared/constants.ts';
import { FormFooter } from '../../components/FormFooter.tsx';
import { showError } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';

interface Props {
  opened: boolean;
  onClose: () => void;
  onDone: () => void;
}

export function ChangePasswordModal({ opened, onClose, onDone }: Props) {
  const { t } = useLingui();
  const form = useForm({
    initialValues: { original: '', password: '', confirm: '' },
    validate: {
      password: (v) =>
        v.length >= MIN_PASSWORD_LENGTH ? null : t`Password must be at least ${MIN_PASSWORD_LENGTH} characters`,
      confirm: (v, all) => (v === all.password ? null : t`The two passwords do not match`),
    },
  });
  const update = trpc.users.updateSelf.useMutation({
    onSuccess: () => {
      form.reset();
      onClose();
      onDone();
    },
    onError: showError,
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t`Change password`} centered>
      <form onSubmit={form.onSubmit((v) => update.mutate({ original_password: v.original, password: v.password }))}>
        <Stack gap="sm">
          <PasswordInput
            label={t`Current password`}
            autoComplete="current-password"
            {...form.getInputProps('original')}
          />
          <PasswordInput
            label={t`New password`}
            placeholder={t`At least ${MIN_PASSWORD_LENGTH} characters`}
            autoComplete="new-password"
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label={t`Confirm new password`}
            autoComplete="new-password"
            {...form.getInputProps('confirm')}
          />
          <FormFooter mt="sm" onCancel={onClose} loading={update.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
