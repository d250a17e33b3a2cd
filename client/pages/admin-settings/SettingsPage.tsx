import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Tabs } from '@mantine/core';
import { useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Page } from '../../components/Page.tsx';
import { UnsavedChangesProvider } from '../../components/UnsavedChanges.tsx';
import { useOptionMap } from './form/useOptionsForm.ts';
import { SectionJump } from './SectionJump.tsx';
import { ModelsTab } from './tabs/ModelsTab.tsx';
import { OperationTab } from './tabs/OperationTab.tsx';
import { OtherTab } from './tabs/OtherTab.tsx';
import { RateLimitTab } from './tabs/RateLimitTab.tsx';
import { SystemTab } from './tabs/SystemTab.tsx';

const TABS = ['operation', 'ratelimit', 'models', 'system', 'other'] as const;
type Tab = (typeof TABS)[number];

/** /admin/settings: the administrator tabs; the active tab lives in ?tab= (default operation). */
export default function SettingsPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = TABS.includes(requested as Tab) ? (requested as Tab) : 'operation';
  const { t } = useLingui();
  const { error } = useOptionMap();
  const panels = useRef<HTMLDivElement>(null);

  return (
    <Page title={<Trans>System settings</Trans>} maxWidth={1200}>
      {/* Every section stages its edits until its Save: leaving with some unsaved asks first. */}
      <UnsavedChangesProvider>
        {error && (
          <Alert color="red" title={t`Refresh failed`}>
            {error}
          </Alert>
        )}
        <Tabs
          value={tab}
          onChange={(v) => v && setParams((p) => ({ ...Object.fromEntries(p), tab: v }), { replace: true })}
          keepMounted={false}
        >
          {/* Tabs wrap onto a second line on phones rather than hide behind a scroll (issue 22). */}
          <Tabs.List style={{ flexWrap: 'wrap' }}>
            <Tabs.Tab value="operation">
              <Trans>Operation settings</Trans>
            </Tabs.Tab>
            <Tabs.Tab value="ratelimit">
              <Trans>Rate limits</Trans>
            </Tabs.Tab>
            <Tabs.Tab value="models">
              <Trans>Model settings</Trans>
            </Tabs.Tab>
            <Tabs.Tab value="system">
              <Trans>System settings</Trans>
            </Tabs.Tab>
            <Tabs.Tab value="other">
              <Trans>Other settings</Trans>
            </Tabs.Tab>
          </Tabs.List>
          <SectionJump key={tab} root={panels} />
          <div ref={panels}>
            <Tabs.Panel value="operation" pt="sm">
              <OperationTab />
            </Tabs.Panel>
            <Tabs.Panel value="ratelimit" pt="sm">
              <RateLimitTab />
            </Tabs.Panel>
            <Tabs.Panel value="models" pt="sm">
              <ModelsTab />
            </Tabs.Panel>
            <Tabs.Panel value="system" pt="sm">
              <SystemTab />
            </Tabs.Panel>
            <Tabs.Panel value="other" pt="sm">
              <OtherTab />
            </Tabs.Panel>
          </div>
        </Tabs>
      </UnsavedChangesProvider>
    </Page>
  );
}
