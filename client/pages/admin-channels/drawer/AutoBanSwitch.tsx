import { Trans, useLingui } from '@lingui/react/macro';
import { Anchor, Stack, Switch, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useStoredUser, userIsRoot } from '../../../lib/user.ts';
import { trpc } from '../../../trpc.ts';
import type { ChannelFormValues } from './form.ts';

/** Where the global switch lives: the Monitoring card of the settings' Other tab. */
export const MONITORING_SETTINGS = '/admin/settings?tab=other#section-monitoring';

/**
 * The channel's "Auto-disable on failure" (auto_ban) with what it does today (issue 39): a key or
 * channel is only taken out of service when both this switch and the global Monitoring › "Disable
 * failing channels automatically" are on, so the form says which one is off and links to the global one.
 */
export function AutoBanSwitch({ form }: { form: UseFormReturnType<ChannelFormValues> }) {
  const { t } = useLingui();
  const root = userIsRoot(useStoredUser());
  const global = trpc.channels.autoDisable.useQuery(undefined, { staleTime: 30_000 });
  const own = form.values.auto_ban;
  const globalOff = global.data?.enabled === false;

  let state;
  if (!own) state = <Trans>Off: this channel and its keys are never disabled automatically.</Trans>;
  else if (globalOff)
    state = (
      <Trans>
        Not in effect: the global switch Monitoring › Disable failing channels automatically is off, so failing keys
        stay enabled.
      </Trans>
    );
  else if (global.data)
    state = (
      <Trans>In effect: a key that answers as dead is marked disabled, and the channel when no key is left.</Trans>
    );

  return (
    <Stack gap={4} data-testid="auto-ban">
      <Switch
        label={t`Auto-disable on failure`}
        description={t`Works only while the global switch "Disable failing channels automatically" is on too`}
        {...form.getInputProps('auto_ban', { type: 'checkbox' })}
      />
      {state && (
        <Text
          size="sm"
          c={own && globalOff ? 'var(--mantine-color-orange-text)' : 'dimmed'}
          data-testid="auto-ban-state"
        >
          {state}{' '}
          {root ? (
            // A new tab: the form being filled in here stays as it is.
            <Anchor href={MONITORING_SETTINGS} target="_blank" size="sm" data-testid="auto-ban-link">
              <Trans>Open the global switch</Trans>
            </Anchor>
          ) : (
            own && globalOff && <Trans>Ask the root user to turn it on.</Trans>
          )}
        </Text>
      )}
    </Stack>
  );
}
