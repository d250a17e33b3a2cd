import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Button, Menu, Text, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconCheck, IconLanguage, IconMoon, IconSun } from '@tabler/icons-react';
import { activateLanguage, type Language, languages } from '../i18n.ts';

/** Dark/light toggle; Mantine persists the choice under `theme-mode` (see main.tsx). */
export function ThemeToggle() {
  const { t } = useLingui();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const label = scheme === 'dark' ? t`Switch to light mode` : t`Switch to dark mode`;
  return (
    <ActionIcon
      variant="subtle"
      color="gray"
      size="lg"
      aria-label={label}
      title={label}
      onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}
      data-testid="theme-toggle"
    >
      {scheme === 'dark' ? <IconSun size={18} /> : <IconMoon size={18} />}
    </ActionIcon>
  );
}

/**
 * The language switch, labelled in both languages so that a reader of either finds it (issue 22: an
 * unlabelled icon was missed by newcomers whose console opened in Chinese).
 */
export function LanguageMenu() {
  const { t, i18n } = useLingui();
  return (
    <Menu position="bottom-end" shadow="md" width={140}>
      <Menu.Target>
        <Button
          variant="subtle"
          color="gray"
          size="compact-sm"
          h={34}
          px={8}
          leftSection={<IconLanguage size={18} />}
          aria-label={`${t`Language`}: 中文 / English`}
          title={t`Language`}
          data-testid="language-menu"
        >
          <Text span size="sm" visibleFrom="sm">
            中文 / English
          </Text>
          <Text span size="sm" hiddenFrom="sm">
            中/EN
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {(Object.keys(languages) as Language[]).map((lang) => (
          <Menu.Item
            key={lang}
            onClick={() => void activateLanguage(lang)}
            rightSection={i18n.locale === lang ? <IconCheck size={14} /> : null}
          >
            {languages[lang]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
