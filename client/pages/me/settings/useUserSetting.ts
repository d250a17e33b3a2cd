import { useLingui } from '@lingui/react/macro';
import { notifications } from '@mantine/notifications';
import type { UserSetting } from '../../../../shared/schemas/user-setting.ts';
import { showError } from '../../../lib/errors.ts';
import { trpc } from '../../../trpc.ts';

/**
 * The signed-in user's settings. Each tab edits a few fields; the server wants the
 * whole object, so a save merges the tab's fields into the last loaded one.
 */
export function useUserSetting() {
  const { t } = useLingui();
  const utils = trpc.useUtils();
  const query = trpc.userSettings.get.useQuery();
  const mutation = trpc.userSettings.update.useMutation({
    onSuccess: (data) => {
      utils.userSettings.get.setData(undefined, data);
      notifications.show({ color: 'teal', message: t`Settings updated` });
    },
    onError: showError,
  });
  return {
    setting: query.data,
    loading: query.isLoading,
    saving: mutation.isPending,
    save: (patch: Partial<UserSetting>) => {
      if (!query.data) return;
      mutation.mutate({ ...query.data, ...patch });
    },
  };
}
