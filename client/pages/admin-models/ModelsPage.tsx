import { Trans } from '@lingui/react/macro';
import { Badge, Tabs } from '@mantine/core';
import { useState } from 'react';
import { Page } from '../../components/Page.tsx';
import { trpc } from '../../trpc.ts';
import { MissingTab } from './MissingTab.tsx';
import { ModelDrawer } from './ModelDrawer.tsx';
import { ModelsTab } from './ModelsTab.tsx';
import type { ModelMeta } from './types.ts';
import { VendorsTab } from './VendorsTab.tsx';

/**
 * /admin/models: the model marketplace's metadata (what the pricing page says about each model),
 * the served models that have none yet, and the vendors (admins only).
 */
export default function ModelsPage() {
  const vendors = trpc.vendors.list.useQuery();
  const missing = trpc.modelMeta.missing.useQuery();
  const [editing, setEditing] = useState<ModelMeta | { model_name: string } | null>(null);
  const missingCount = missing.data?.length ?? 0;
  return (
    <Page title={<Trans>Model management</Trans>}>
      <Tabs defaultValue="models" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="models">
            <Trans>Model metadata</Trans>
          </Tabs.Tab>
          <Tabs.Tab
            value="missing"
            rightSection={
              missingCount > 0 ? (
                <Badge size="sm" color="orange" variant="light" circle={missingCount < 10}>
                  {missingCount}
                </Badge>
              ) : undefined
            }
          >
            <Trans>Missing models</Trans>
          </Tabs.Tab>
          <Tabs.Tab value="vendors">
            <Trans>Vendors</Trans>
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="models" pt="md">
          <ModelsTab vendors={vendors.data ?? []} onEdit={setEditing} />
        </Tabs.Panel>
        <Tabs.Panel value="missing" pt="md">
          <MissingTab onEdit={setEditing} />
        </Tabs.Panel>
        <Tabs.Panel value="vendors" pt="md">
          <VendorsTab vendors={vendors.data ?? []} loading={vendors.isLoading} />
        </Tabs.Panel>
      </Tabs>
      <ModelDrawer editing={editing} vendors={vendors.data ?? []} onClose={() => setEditing(null)} />
    </Page>
  );
}
