import { describe, expect, it } from 'vitest';
import { insertChannel } from '../relay-fixtures.ts';
import { rootConsole } from './harness.ts';

/*
 * The channel form's automatic prompt-cache switch (issue 29, item 5): shown for Anthropic and
 * Bedrock channels with the type's default, saved into the extra settings JSON beside its other keys.
 */
describe('the channel drawer: automatic prompt caching', () => {
  const c = rootConsole();
  const settingOf = async (id: number) =>
    JSON.parse(
      (
        await c.gateway.test.deps.db
          .selectFrom('channels')
          .select('setting')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).setting ?? '{}',
    ) as Record<string, unknown>;

  it('is on for an Anthropic channel until turned off, which the settings JSON keeps; absent on OpenAI', async () => {
    const id = await insertChannel(c.gateway.test.deps, {
      name: 'Claude',
      type: 14,
      baseUrl: 'https://api.anthropic.com',
      models: ['claude-sonnet-4-5'],
      setting: { proxy: '' },
    });
    await c.s.page.goto(`/channel/edit/${id}`);
    const drawer = c.s.page.getByRole('dialog', { name: `Edit channel #${id}` });
    const toggle = drawer.getByLabel('Cache prompts automatically');
    await expect(toggle.isChecked()).resolves.toBe(true);
    // Toggled from the keyboard: a forced click on the switch could land while the drawer still slides in
    // (off-screen on a loaded CI machine), and the switch's input covers its label for a plain click.
    await toggle.focus();
    await c.s.page.keyboard.press('Space');
    await expect(toggle.isChecked()).resolves.toBe(false);
    await drawer.getByRole('button', { name: 'Save' }).click();
    await drawer.waitFor({ state: 'hidden' });
    expect(await settingOf(id)).toEqual({ proxy: '', auto_cache_control: false });

    const openai = await insertChannel(c.gateway.test.deps, {
      name: 'GPT',
      baseUrl: 'https://api.openai.com',
      models: ['gpt-4o'],
    });
    await c.s.page.goto(`/channel/edit/${openai}`);
    const other = c.s.page.getByRole('dialog', { name: `Edit channel #${openai}` });
    await other.getByRole('button', { name: 'Save' }).waitFor();
    await expect(other.getByLabel('Cache prompts automatically').count()).resolves.toBe(0);
    expect(c.s.errors).toEqual([]);
  });
});
