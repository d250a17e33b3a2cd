import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { TRPCClientError } from '@trpc/client';
import { showError, showSuccess } from '../../../lib/errors.ts';
import { trpc } from '../../../trpc.ts';
import {
  baseUrlEndsInV1,
  type ChannelFormValues,
  hasBaseUrl,
  type Problem,
  problemOf,
  toChannelInput,
} from './form.ts';

/** Validates (spec §5 messages), asks about a /v1 base URL, then creates or updates. */
export function useChannelSubmit(editingId: number | undefined, onDone: () => void) {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const messages: Record<Problem, string> = {
    nameAndKey: t`Please fill in channel name and channel key`,
    noModel: t`Please select at least one model`,
    modelMapping: t`Model mapping must be valid JSON`,
    statusCodeMapping: t`Status code mapping must be valid JSON`,
    setting: t`Extra settings must be valid JSON`,
    paramOverride: t`Parameter override must be valid JSON`,
    other: t`The deployment region must be valid JSON`,
    priority: t`Priority cannot be less than -999`,
  };
  const onError = (e: unknown) => {
    // No answer at all: the request may still have gone through.
    if (e instanceof TRPCClientError && !e.data) showError(new Error(t`Submission failed, do not resubmit`));
    else showError(e);
  };
  const finish = (message: string) => {
    showSuccess(message);
    void utils.channels.list.invalidate();
    onDone();
  };
  const create = trpc.channels.create.useMutation({
    onSuccess: ({ ids }) =>
      finish(
        ids.length > 1
          ? plural(ids.length, { one: '# channel created', other: '# channels created' })
          : t`Channel created`,
      ),
    onError,
  });
  const update = trpc.channels.update.useMutation({ onSuccess: () => finish(t`Channel updated`), onError });

  const send = (v: ChannelFormValues) => {
    const input = toChannelInput(v);
    if (editingId !== undefined) update.mutate({ id: editingId, ...input });
    else create.mutate({ ...input, mode: v.multiKey ? v.multiKeyMode : 'single' });
  };

  const submit = (v: ChannelFormValues) => {
    const problem = problemOf(v, editingId === undefined);
    if (problem) {
      notifications.show({ color: 'red', message: messages[problem] });
      return;
    }
    if (hasBaseUrl(v.type) && baseUrlEndsInV1(v.base_url)) {
      modals.openConfirmModal({
        title: t`Base URL ends with /v1`,
        centered: true,
        children: t`The gateway adds /v1 itself, so this usually produces /v1/v1 paths. Save anyway?`,
        labels: { confirm: t`Save anyway`, cancel: t`Go back` },
        onConfirm: () => send(v),
      });
      return;
    }
    send(v);
  };
  return { submit, pending: create.isPending || update.isPending };
}
