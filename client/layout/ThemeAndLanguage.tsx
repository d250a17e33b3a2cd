import { useLingui } from '@lingui/react/macro';
import { ActionIcon, Button, Menu, Text, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { IconCheck, IconDeviceDesktop, IconLanguage, IconMoon, IconSun } from '@tabler/icons-react';
import { activateLanguage, type Language, languages } from '../i18n.ts';

/**
 * Light, dark, or the system's setting (issue 45: dark mode ignored the operating system). Until the
 * reader picks, the console follows `prefers-color-scheme` (main.tsx: defaultColorScheme "auto");
 * Mantine keeps a pick under `theme-mode` (light / dark / auto, new-api's values), and "Follow system"
 * goes back to auto. The icon shows the scheme in use.
 */
export function ThemeToggle() {
  const { t } = useLingui();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const choices = [
    { value: 'auto', label: t`Follow system`, icon: <IconDeviceDesktop size={16} /> },
    { value: 'light', label: t`Light`, icon: <IconSun size={16} /> },
    { value: 'dark', label: t`Dark`, icon: <IconMoon size={16} /> },
  ] as const;
  const label = t`Theme`;
  return (
    <Menu position="bottom-end" shadow="md" width={160}>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label={label} title={label} data-testid="theme-toggle">
          {scheme === 'dark' ? <IconMoon size={18} /> : <IconSun size={18} />}
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {choices.map((c) => (
          <Menu.Item
            key={c.value}
            leftSection={c.icon}
            rightSection={colorScheme === c.value ? <IconCheck size={14} /> : null}
            onClick={() => setColorScheme(c.value)}
            data-testid={`theme-${c.value}`}
          >
            {c.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
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
