import { describe, expect, it } from 'vitest';
import { rootConsole } from './harness.ts';

/*
 * Issue #30: the channel form says what each type's key and `other` hold, shows `other` where the
 * type uses it, and steers a retired type (legacy Baidu, Zhipu, PaLM) to its successor.
 */
describe('the channel drawer for types with fields of their own', () => {
  const c = rootConsole();

  const openNew = async () => {
    const page = c.s.page;
    await page.goto('/admin/channels');
    await page.getByRole('button', { name: 'Add channel' }).click();
    const drawer = page.getByRole('dialog', { name: 'Add channel' });
    const pickType = async (name: string) => {
      await drawer.getByLabel('Type', { exact: true }).click();
      await page.getByRole('option', { name, exact: true }).click();
    };
    return { page, drawer, pickType };
  };

  it("asks a Cloudflare channel for its account ID next to the key, and saves it in 'other'", async () => {
    const { page, drawer, pickType } = await openNew();
    await expect(drawer.getByTestId('channel-other').count()).resolves.toBe(0);
    await pickType('Cloudflare Workers AI');
    await drawer.getByText('A Cloudflare API token with Workers AI permission.').waitFor();
    await drawer.getByLabel(/^Name/).fill('Workers AI');
    await drawer.getByLabel('Key', { exact: true }).fill('cf-token');
    await drawer.getByLabel(/^Account ID/).fill('abc123account');
    await drawer.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Channel created').waitFor();
    const row = await c.gateway.test.deps.db
      .selectFrom('channels')
      .select(['type', 'other', 'key'])
      .where('name', '=', 'Workers AI')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ type: 39, other: 'abc123account', key: 'cf-token' });
    expect(c.s.errors).toEqual([]);
  });

  it('shows the key format of a signed API, and suggests Baidu v2 for the retired Baidu API', async () => {
    const { drawer, pickType } = await openNew();
    await pickType('Baidu');
    await expect(drawer.getByLabel('Key', { exact: true }).getAttribute('placeholder')).resolves.toBe(
      'Format: APIKey|SecretKey',
    );
    const notice = drawer.getByTestId('successor-notice');
    await notice.getByText('The vendor has retired the Baidu API').waitFor();
    await notice.getByRole('button', { name: 'Use Baidu v2' }).click();
    await notice.waitFor({ state: 'detached' });
    await expect(drawer.getByLabel('Type', { exact: true }).inputValue()).resolves.toBe('Baidu v2');
    expect(c.s.errors).toEqual([]);
  });

  it('offers Vertex AI one service-account key with its region, and Xunfei Spark its version', async () => {
    const { drawer, pickType } = await openNew();
    await pickType('Vertex AI');
    await drawer.getByLabel(/^Deployment region/).waitFor();
    await expect(drawer.getByRole('radio', { name: 'Several keys' }).count()).resolves.toBe(0);
    await drawer
      .getByText("A service account's JSON key file (the whole file), or an express-mode API key (Gemini models only).")
      .waitFor();
    await pickType('Xunfei Spark');
    await expect(drawer.getByLabel(/^Spark API version/).getAttribute('placeholder')).resolves.toBe('v2.1');
    await expect(drawer.getByLabel('Key', { exact: true }).getAttribute('placeholder')).resolves.toBe(
      'Format: APPID|APISecret|APIKey',
    );
    expect(c.s.errors).toEqual([]);
  });
});
