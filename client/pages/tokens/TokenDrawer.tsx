import '@mantine/dates/styles.css';
import { Trans, useLingui } from '@lingui/react/macro';
import { Divider, Drawer, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { MAX_TOKEN_NAME_LENGTH } from '../../../shared/constants.ts';
import { FormFooter } from '../../components/FormFooter.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';
import { showCreatedKeys } from './CreatedKeys.tsx';
import { ExpiryField } from './ExpiryField.tsx';
import { BATCH_COUNTS, emptyToken, toTokenInput, useTokenForm, valuesFromToken } from './form.ts';
import { LimitFields } from './LimitFields.tsx';
import { QuotaFields } from './QuotaFields.tsx';
import type { TokenRow } from './types.ts';

interface Props {
  opened: boolean;
  /** The token being edited; undefined when creating. */
  editing?: TokenRow;
  onClose: () => void;
}

/** Token create/edit side drawer (spec admin-pricing-channels-tokens §2, §9). */
export function TokenDrawer({ opened, editing, onClose }: Props) {
  const { t } = useLingui();
  const mobile = useMediaQuery('(max-width: 600px)');
  const form = useTokenForm();
  const utils = trpc.useUtils();
  const done = () => {
    void utils.tokens.list.invalidate();
    onClose();
  };
  const create = trpc.tokens.create.useMutation({
    onSuccess: ({ keys }) => {
      notifications.show({
        color: 'teal',
        title: t`Token created`,
        message: t`You can copy the key from the token list at any time.`,
      });
      done();
      showCreatedKeys(keys);
    },
    onError: showError,
  });
  const update = trpc.tokens.update.useMutation({
    onSuccess: () => {
      showSuccess(t`Token updated`);
      done();
    },
    onError: showError,
  });

  useEffect(() => {
    if (!opened) return;
    form.setValues(editing ? valuesFromToken(editing) : emptyToken());
    form.resetDirty();
    form.clearErrors();
    // Reset when the drawer opens for another token, not on every render of the form.
  }, [opened, editing?.id]);

  const submit = form.onSubmit((values) => {
    const input = toTokenInput(values);
    if (editing) update.mutate({ id: editing.id, ...input });
    else create.mutate({ ...input, count: Number(values.count) });
  });

  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size={mobile ? '100%' : 'md'}
      title={editing ? <Trans>Edit token</Trans> : <Trans>Create token</Trans>}
      styles={{ title: { fontWeight: 600, fontSize: 18 } }}
    >
      <form onSubmit={submit} noValidate data-testid="token-form">
        <Stack gap="md">
          <TextInput
            label={t`Name`}
            placeholder={t`e.g. my laptop`}
            maxLength={MAX_TOKEN_NAME_LENGTH}
            {...form.getInputProps('name')}
          />
          <QuotaFields form={form} />
          <ExpiryField form={form} />
          {!editing && (
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                <Trans>How many tokens</Trans>
              </Text>
              <SegmentedControl data={BATCH_COUNTS} {...form.getInputProps('count')} />
              <Text size="xs" c="dimmed">
                <Trans>Extra tokens get the name plus a random suffix.</Trans>
              </Text>
            </Stack>
          )}
          <Divider label={t`Access`} labelPosition="left" />
          <LimitFields form={form} />
          <FormFooter
            sticky
            onCancel={onClose}
            label={editing ? <Trans>Save</Trans> : <Trans>Create</Trans>}
            loading={create.isPending || update.isPending}
          />
        </Stack>
      </form>
    </Drawer>
  );
}
