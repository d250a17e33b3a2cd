import { plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { FormFooter } from '../../components/FormFooter.tsx';
import { showError, showSuccess } from '../../lib/errors.ts';
import { trpc } from '../../trpc.ts';

interface Props {
  opened: boolean;
  onClose: () => void;
}

/** Delete every code of one name: the count is looked up first, and deleting is allowed only when it is not zero. */
export function DeleteByNameModal({ opened, onClose }: Props) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const [name, setName] = useState('');
  const [looked, setLooked] = useState<{ name: string; count: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const remove = trpc.redemptions.deleteByName.useMutation({
    onSuccess: (n) => {
      showSuccess(plural(n, { one: 'Deleted # redemption code', other: 'Deleted # redemption codes' }));
      void utils.redemptions.list.invalidate();
      close();
    },
    onError: showError,
  });

  function close() {
    setName('');
    setLooked(null);
    setError(null);
    onClose();
  }

  async function lookUp() {
    const trimmed = name.trim();
    if (!trimmed) return setError(t`Please enter the name`);
    try {
      setLooked({ name: trimmed, count: await utils.redemptions.countByName.fetch({ name: trimmed }) });
    } catch (err) {
      showError(err);
    }
  }

  const current = looked && looked.name === name.trim() ? looked : null;
  const lookedName = current?.name ?? '';
  return (
    <Modal opened={opened} onClose={close} title={<Trans>Delete by name</Trans>}>
      <Stack gap="sm">
        <TextInput
          label={t`Name`}
          value={name}
          error={error}
          data-autofocus
          onChange={(e) => {
            setName(e.currentTarget.value);
            setError(null);
          }}
          onKeyDown={(e) => e.key === 'Enter' && void lookUp()}
        />
        {current && (
          <Text size="sm" c={current.count ? 'red' : 'dimmed'} data-testid="delete-by-name-count">
            {current.count ? (
              <Plural
                value={current.count}
                one={`# code named "${lookedName}" will be deleted. This cannot be undone.`}
                other={`# codes named "${lookedName}" will be deleted. This cannot be undone.`}
              />
            ) : (
              <Trans>No redemption code has this name.</Trans>
            )}
          </Text>
        )}
        <FormFooter
          onCancel={close}
          label={current?.count ? <Trans>Delete</Trans> : <Trans>Look up</Trans>}
          danger={Boolean(current?.count)}
          loading={Boolean(current?.count) && remove.isPending}
          onConfirm={() => (current?.count ? remove.mutate({ name: current.name }) : void lookUp())}
        />
      </Stack>
    </Modal>
  );
}
