import { useLingui } from '@lingui/react/macro';
import { notifications } from '@mantine/notifications';
import { detailOf, showError, withDetail } from '../../lib/errors.ts';
import { serverTextInLanguage } from '../../lib/server-messages.ts';
import { trpc } from '../../trpc.ts';

/** Tests one channel (optionally with a model) and reports the result; the list refreshes either way. */
export function useChannelTest() {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const test = trpc.channels.test.useMutation({
    onSuccess: (r, input) => {
      const seconds = (r.timeMs / 1000).toFixed(2);
      if (r.ok)
        notifications.show({ color: 'teal', message: t`Channel #${String(input.id)} passed the test in ${seconds} s` });
      else {
        const id = `channel-test:${input.id}:${Date.now()}`;
        notifications.show({
          id,
          color: 'red',
          title: t`Channel #${String(input.id)} failed the test`,
          message: withDetail(serverTextInLanguage(r.message), detailOf(r), id),
        });
      }
    },
    onError: showError,
    onSettled: () => void utils.channels.list.invalidate(),
  });
  return {
    run: (id: number, model?: string) => test.mutate({ id, model }),
    pendingId: test.isPending ? Number(test.variables?.id) : undefined,
  };
}
