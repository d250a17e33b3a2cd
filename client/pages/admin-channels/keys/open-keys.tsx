import { useLingui } from '@lingui/react/macro';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import type { ChannelRow } from '../types.ts';
import { KeysPanel } from './KeysPanel.tsx';

/** Opens a multi-key channel's key list in a modal (full screen on phones). */
export function useOpenKeys() {
  const { t } = useLingui();
  const mobile = useMediaQuery('(max-width: 600px)');
  return (channel: Pick<ChannelRow, 'id' | 'name'>) =>
    modals.open({
      title: t`Keys of channel #${channel.id} ${channel.name}`,
      size: 'lg',
      fullScreen: mobile,
      styles: { title: { fontWeight: 600 } },
      children: <KeysPanel channelId={channel.id} />,
    });
}
