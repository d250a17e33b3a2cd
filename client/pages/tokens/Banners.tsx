import { Trans } from '@lingui/react/macro';
import { Alert } from '@mantine/core';
import { IconAlertTriangle, IconEye } from '@tabler/icons-react';
import { useStatus } from '../../lib/status-context.tsx';

/** The fixed warning, plus the chat-logging notice when the site records conversations. */
export function TokenBanners() {
  const status = useStatus();
  return (
    <>
      <Alert variant="light" color="yellow" icon={<IconAlertTriangle size={18} />} p="sm">
        <Trans>
          Tokens cannot precisely control quota. Use them yourself only, and never hand a token to anyone else.
        </Trans>
      </Alert>
      {status.log_chat_content_enabled && (
        <Alert variant="light" color="red" icon={<IconEye size={18} />} p="sm" data-testid="chat-log-banner">
          <Trans>The site administrator has turned on conversation logging and can view your chats.</Trans>
        </Alert>
      )}
    </>
  );
}
