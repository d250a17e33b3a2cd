import { useLingui } from '@lingui/react/macro';
import { Anchor, Code, Stack, Text } from '@mantine/core';
import { type NotificationData, notifications } from '@mantine/notifications';
import { useState } from 'react';

/**
 * A failure said as a sentence, with the server's technical detail (the network error's own words, a
 * framework code, a hint for the operator) behind a small "Details" link: there for whoever needs it,
 * out of everyone else's way. Opening it keeps the toast `toastId` on screen until closed.
 */
export function ErrorWithDetail({ message, detail, toastId }: { message: string; detail: string; toastId?: string }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const toggle = () => {
    setOpen((o) => !o);
    // update() merges into the shown toast, so only the changed field is given.
    if (toastId) notifications.update({ id: toastId, autoClose: false } as NotificationData);
  };
  return (
    <Stack gap={4}>
      <Text size="sm" inherit>
        {message}
      </Text>
      <Anchor component="button" type="button" size="xs" c="dimmed" ta="left" onClick={toggle} aria-expanded={open}>
        {open ? t`Hide details` : t`Details`}
      </Anchor>
      {open && (
        <Code
          block
          data-technical
          data-testid="error-detail"
          style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
        >
          {detail}
        </Code>
      )}
    </Stack>
  );
}
