import { useLingui } from '@lingui/react/macro';
import { Alert, Button, Group, SimpleGrid, Code, Stack } from '@mantine/core';
import { IconCopy, IconDownload, IconAlertTriangle } from '@tabler/icons-react';
import { copyText } from '../../components/clipboard.tsx';

/** Saves the codes as a text file (one a line), named after the site. */
function download(codes: string[], name: string) {
  const url = URL.createObjectURL(new Blob([`${codes.join('\n')}\n`], { type: 'text/plain' }));
  const a = Object.assign(document.createElement('a'), { href: url, download: `${name}-backup-codes.txt` });
  a.click();
  URL.revokeObjectURL(url);
}

/** Backup codes, shown once: each works once where the app's code is asked for. */
export function BackupCodesView({ codes, siteName }: { codes: string[]; siteName: string }) {
  const { t } = useLingui();
  return (
    <Stack gap="sm">
      <Alert color="orange" icon={<IconAlertTriangle size={18} />}>
        {t`Save these backup codes somewhere safe. Each works once, when you cannot use the app, and they are not shown again.`}
      </Alert>
      <SimpleGrid cols={2} spacing="xs" data-testid="backup-codes">
        {codes.map((c) => (
          <Code key={c} ta="center" fz="md">
            {c}
          </Code>
        ))}
      </SimpleGrid>
      <Group gap="xs">
        <Button
          variant="light"
          size="xs"
          leftSection={<IconCopy size={14} />}
          onClick={() => void copyText(codes.join('\n'), t`Backup codes copied`)}
        >
          {t`Copy all`}
        </Button>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconDownload size={14} />}
          onClick={() => download(codes, siteName)}
        >
          {t`Download`}
        </Button>
      </Group>
    </Stack>
  );
}
