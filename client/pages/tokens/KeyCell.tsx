import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Code, Group, Tooltip } from '@mantine/core';
import { IconCopy, IconEye, IconEyeOff } from '@tabler/icons-react';
import { useState } from 'react';
import { copyText } from '../../components/clipboard.tsx';
import { fullKey, maskedKey } from './types.ts';

/** The key masked as sk-xxxx…xxxx, with reveal and copy. */
export function KeyCell({ tokenKey }: { tokenKey: string }) {
  const { t } = useLingui();
  const [shown, setShown] = useState(false);
  return (
    <Group gap={4} wrap="nowrap">
      <Code data-testid="token-key" style={{ whiteSpace: 'nowrap' }}>
        {shown ? fullKey(tokenKey) : maskedKey(tokenKey)}
      </Code>
      <Tooltip label={shown ? t`Hide key` : t`Show key`} withinPortal>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="sm"
          aria-label={shown ? t`Hide key` : t`Show key`}
          onClick={() => setShown((s) => !s)}
        >
          {shown ? <IconEyeOff size={14} /> : <IconEye size={14} />}
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t`Copy key`} withinPortal>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="sm"
          aria-label={t`Copy key`}
          onClick={() => void copyText(fullKey(tokenKey))}
        >
          <IconCopy size={14} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
