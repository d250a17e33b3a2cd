import { useLingui } from '@lingui/react/macro';
import { Paper, Tabs } from '@mantine/core';
import { settingsTabs } from './sections.ts';

/** Notification, price and other settings; tabs appear once their component is registered. */
export function SettingsTabs() {
  const { i18n } = useLingui();
  const tabs = settingsTabs.flatMap((tab) => (tab.component ? [{ ...tab, component: tab.component }] : []));
  if (tabs.length === 0) return null;
  return (
    <Paper withBorder radius="lg" p="md">
      <Tabs defaultValue={tabs[0].key}>
        <Tabs.List>
          {tabs.map((tab) => (
            <Tabs.Tab key={tab.key} value={tab.key}>
              {i18n._(tab.label)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map((tab) => (
          <Tabs.Panel key={tab.key} value={tab.key} pt="md">
            <tab.component />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Paper>
  );
}
