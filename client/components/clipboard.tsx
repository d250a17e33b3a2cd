import { t } from '@lingui/core/macro';
import { Code, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';

function legacyCopy(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

/** Shows the text in a dialog when the browser refuses to copy (spec console-screens §8). */
function showManualCopy(text: string) {
  modals.open({
    title: t`Cannot copy to clipboard`,
    children: (
      <Stack gap="xs">
        <Text size="sm">{t`Cannot copy to clipboard, please copy manually:`}</Text>
        <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="manual-copy">
          {text}
        </Code>
      </Stack>
    ),
  });
}

/** Copies text, toasting on success, falling back to a manual-copy dialog. */
export async function copyText(text: string, successMessage?: string): Promise<boolean> {
  let ok = false;
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      ok = true;
    }
  } catch {
    ok = false;
  }
  if (!ok) ok = legacyCopy(text);
  if (ok) notifications.show({ color: 'teal', message: successMessage ?? t`Copied to clipboard` });
  else showManualCopy(text);
  return ok;
}
