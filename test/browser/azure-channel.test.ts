import { describe, expect, it } from 'vitest';
import { insertChannel } from '../relay-fixtures.ts';
import { rootConsole } from './harness.ts';

describe('an Azure OpenAI channel in the channel drawer', () => {
  const c = rootConsole();

  it('edits its own api-version (the gateway default applies when it is empty)', async () => {
    const id = await insertChannel(c.gateway.test.deps, {
      name: 'Azure east',
      type: 3,
      baseUrl: 'https://east.openai.azure.com',
      models: ['gpt-4o'],
    });
    await c.s.page.goto(`/channel/edit/${id}`);
    const drawer = c.s.page.getByRole('dialog', { name: `Edit channel #${id}` });
    await drawer.getByRole('button', { name: 'Advanced settings' }).click();
    await drawer.getByText("empty uses the gateway's AZURE_DEFAULT_API_VERSION").waitFor();
    await drawer.getByLabel('API version').fill('2025-04-01-preview');
    await drawer.getByRole('button', { name: 'Save' }).click();
    await drawer.waitFor({ state: 'hidden' });
    const row = await c.gateway.test.deps.db
      .selectFrom('channels')
      .select('other')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.other).toBe('2025-04-01-preview');
    expect(c.s.errors).toEqual([]);
  });
});
