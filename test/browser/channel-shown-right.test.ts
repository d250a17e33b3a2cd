import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeUpstream, startFakeOpenAI } from '../../scripts/fake-upstream/server.ts';
import { insertChannel, insertToken, insertUser, setOptions } from '../relay-fixtures.ts';
import { rootConsole } from './harness.ts';

/*
 * Issue 45, "shown right" on the channel list: a channel whose one test failed but that now serves
 * calls no longer reads "Test failed", and a channel whose test passed but whose calls fail says so;
 * in tag mode a tag whose channels differ shows its priority and weight as a range, never its first
 * channel's values, and leaving the box untouched writes nothing. Real relay calls through the OpenAI
 * SDK against the fake upstream, the real console in Chromium.
 */

describe('channel status follows the latest calls; tag rows show mixed values', () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  afterAll(() => fake?.close());
  const c = rootConsole();

  it('a failed test then a served call shows the calls OK; a good test then a failing call shows them failing', async () => {
    const deps = c.gateway.test.deps;
    const base = fake.url.replace(/\/v1$/, '');
    const recovered = await insertChannel(deps, {
      name: 'Recovered upstream',
      baseUrl: base,
      models: ['rec-m', 'rec-m+fail-500'],
    });
    const broke = await insertChannel(deps, {
      name: 'Broke upstream',
      baseUrl: base,
      models: ['brk-m', 'brk-m+fail-502'],
      autoBan: false,
    });
    await setOptions(deps, {
      ModelRatio: JSON.stringify({ 'rec-m': 1, 'rec-m+fail-500': 1, 'brk-m': 1, 'brk-m+fail-502': 1 }),
    });
    const user = await insertUser(deps);
    const sdk = new OpenAI({
      apiKey: (await insertToken(deps, user.id, { unlimited: true })).key,
      baseURL: `${c.gateway.baseUrl}/v1`,
      maxRetries: 0,
    });
    const ask = (model: string) => sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });

    expect((await deps.services.channels.testChannel(recovered, 'rec-m+fail-500')).ok).toBe(false);
    expect((await deps.services.channels.testChannel(broke, 'brk-m')).ok).toBe(true);
    const { page } = c.s;
    await page.goto('/admin/channels');
    const row = (name: string) => page.locator('tr, [data-testid="phone-card"]').filter({ hasText: name });
    // Before any call, the tests are what happened last.
    await row('Recovered upstream').locator('[data-state="failed"]').waitFor();
    await row('Broke upstream').locator('[data-state="passed"]').waitFor();

    await ask('rec-m');
    await expect(ask('brk-m+fail-502')).rejects.toMatchObject({ status: 502 });
    await page.reload();
    const rec = row('Recovered upstream').getByTestId('response-time');
    await rec.locator('[data-state="calls-ok"]').getByText('Calls OK').waitFor();
    expect(await rec.getByText('Test failed').count()).toBe(0);
    expect(await row('Recovered upstream').getByTestId('test-reason').count()).toBe(0);
    // The failed test is still told, on hover, below the call.
    await rec.hover();
    const tip = page.getByRole('tooltip');
    await tip.getByText('The latest relayed call succeeded').waitFor();
    await tip.getByText('Last test').waitFor();
    await tip.getByText(/^Failed after \d+\.\d\d s$/).waitFor();
    await page.mouse.move(0, 0);

    const brk = row('Broke upstream').getByTestId('response-time');
    await brk.locator('[data-state="calls-failing"]').getByText('Calls failing').waitFor();
    expect(await row('Broke upstream').getByTestId('test-reason').innerText()).toMatch(/^502 /);

    // A passing test after the failing calls is what happened last again.
    await brk.click();
    await brk.locator('[data-state="passed"]').waitFor({ timeout: 15_000 });
    expect(c.s.errors).toEqual([]);
  });

  it('tag mode: a tag whose channels differ shows ranges; an untouched box writes nothing, a typed value all', async () => {
    const deps = c.gateway.test.deps;
    const ids: number[] = [];
    for (const [i, [priority, weight]] of [
      [10, 5],
      [0, 0],
      [0, 0],
      [0, 0],
    ].entries())
      ids.push(
        await insertChannel(deps, {
          name: `Pool ${i}`,
          baseUrl: 'http://127.0.0.1:9',
          models: ['pool-m'],
          priority,
          weight,
        }),
      );
    await deps.services.channels.batchTag(ids, 'pool');
    const stored = async () =>
      (
        await deps.db
          .selectFrom('channels')
          .select(['priority', 'weight'])
          .where('id', 'in', ids)
          .orderBy('id')
          .execute()
      ).map((r) => [r.priority, r.weight]);

    const { page } = c.s;
    await page.evaluate(() => localStorage.setItem('tag-mode', 'true'));
    await page.goto('/admin/channels');
    const tagRow = page.locator('tr').filter({ hasText: '4 channels' });
    const priority = tagRow.getByRole('textbox', { name: /^Priority/ });
    const weight = tagRow.getByRole('textbox', { name: /^Weight/ });
    await priority.waitFor();
    // Never the first channel's 10 / 5: empty, showing the range.
    expect(await priority.inputValue()).toBe('');
    expect(await priority.getAttribute('placeholder')).toBe('0–10');
    expect(await weight.inputValue()).toBe('');
    expect(await weight.getAttribute('placeholder')).toBe('0–5');

    // Into the box and out again: nothing is written.
    for (const box of [priority, weight]) {
      await box.focus();
      await box.blur();
    }
    await page.waitForTimeout(500);
    expect(await stored()).toEqual([
      [10, 5],
      [0, 0],
      [0, 0],
      [0, 0],
    ]);

    // A value typed is the admin's choice: every channel of the tag takes it, the weights stay.
    await priority.fill('3');
    await priority.press('Enter');
    await expect.poll(stored, { timeout: 10_000 }).toEqual([
      [3, 5],
      [3, 0],
      [3, 0],
      [3, 0],
    ]);
    await expect.poll(() => priority.inputValue(), { timeout: 10_000 }).toBe('3');
    expect(await weight.getAttribute('placeholder')).toBe('0–5');

    // The tag's drawer says what the channels have now.
    await tagRow.getByRole('button', { name: /Edit/ }).first().click();
    const drawer = page.getByRole('dialog');
    await drawer.getByText('Mixed: 0–5').waitFor();
    await drawer.getByText('Currently 3').waitFor();
    expect(c.s.errors).toEqual([]);
    await page.evaluate(() => localStorage.removeItem('tag-mode'));
  });
});
