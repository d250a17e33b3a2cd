import type { Page } from 'playwright-core';
import type { AppDeps } from '../../../server/context.ts';
import { insertChannel, setOptions } from '../../relay-fixtures.ts';
import type { Scene, SceneRoute } from '../layout-checks.ts';

/*
 * Settings and pricing scenes: the retries card on a fresh install (test/browser/retries-card.test.ts,
 * scene `retries`) and models without a price (test/browser/pricing-unpriced.test.ts, scene `pricing-unpriced`).
 */

export const retriesRoutes: SceneRoute[] = [
  {
    route: '/admin/settings?tab=models',
    name: 'admin-settings-retries',
    ready: (page) => page.getByTestId('section-retries').getByTestId('retries-summary').waitFor(),
    part: (page) => page.getByTestId('section-retries'),
  },
];

export const retriesScene: Scene = {
  about: 'the retries card of the model settings, defaults',
  setUp: () => Promise.resolve({ routes: retriesRoutes }),
};

export const UNPRICED = 'house-model';
export const IMAGE = 'flux-pro';
export const PER_CALL = 'mj_imagine';
export const PRICED = 'gpt-4o-mini';

/** A model's table row, or its card on a phone. */
export const modelRow = (page: Page, model: string) =>
  page.locator('tr, [data-testid="phone-card"]').filter({ hasText: model }).first();

/** Per-image and per-call prices, and a channel listing a priced, an unpriced, an image and a per-call model. */
export async function seedUnpriced(deps: AppDeps): Promise<number> {
  await setOptions(deps, { ModelPrice: JSON.stringify({ [IMAGE]: 0.05, [PER_CALL]: 0.1 }) });
  const channelId = await insertChannel(deps, {
    name: 'Local upstream',
    baseUrl: 'http://127.0.0.1:9',
    models: [PRICED, UNPRICED, IMAGE, PER_CALL],
  });
  deps.services.pricing.invalidate();
  return channelId;
}

/** The pricing settings' warning with the unpriced model's row, and the channel form's warning. */
export const unpricedSettingsRoutes = (channelId: number): SceneRoute[] => [
  {
    route: '/admin/settings?tab=operation&pricing=unset',
    name: 'settings-pricing-unpriced',
    ready: async (page) => {
      const section = page.getByTestId('section-pricing');
      await section.getByTestId('unpriced-alert').waitFor();
      await section.getByRole('row').filter({ hasText: UNPRICED }).first().waitFor();
    },
    part: (page) => page.getByTestId('section-pricing'),
  },
  {
    route: `/channel/edit/${channelId}`,
    name: 'channel-unpriced-warning',
    ready: async (page) => {
      await page.getByTestId('unpriced-models-warning').waitFor();
      await page.getByTestId('unpriced-models-warning').scrollIntoViewIfNeeded();
    },
  },
];

/** The public pricing page: "not available" for the unpriced model, per-image and per-call units. */
export const pricingRoutes: SceneRoute[] = [
  { route: '/pricing', name: 'pricing-unpriced', ready: (page) => modelRow(page, UNPRICED).waitFor() },
];

export const pricingUnpricedScene: Scene = {
  about: 'the pricing page, the pricing settings and the channel form with a model without a price',
  async setUp(gateway) {
    const channelId = await seedUnpriced(gateway.test.deps);
    return { routes: [...pricingRoutes, ...unpricedSettingsRoutes(channelId)] };
  },
};
