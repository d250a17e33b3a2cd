import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateChannelInput } from '../../shared/schemas/channels.ts';
import { insertChannel } from '../relay-fixtures.ts';
import { rootConsole } from './harness.ts';

describe('the channel drawer: choosing models from the upstream list', () => {
  // An OpenAI-style upstream listing four models.
  const upstream: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const ids = ['gpt-4o', 'gpt-4o-mini', 'o3-mini', 'text-embedding-3-small'];
    res.end(JSON.stringify({ object: 'list', data: ids.map((id) => ({ id, object: 'model' })) }));
  });
  beforeAll(() => new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r)));
  afterAll(() => upstream.close());
  const c = rootConsole();

  it('ticks what the channel has, marks the rest new, and adds exactly the choice when asked to add', async () => {
    const id = await insertChannel(c.gateway.test.deps, {
      name: 'Picker',
      baseUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      models: ['gpt-4o', 'my-custom-model'],
    });
    await c.s.page.goto(`/channel/edit/${id}`);
    const drawer = c.s.page.getByRole('dialog', { name: `Edit channel #${id}` });
    await drawer.getByRole('button', { name: 'Fetch from upstream' }).click();
    const picker = c.s.page.getByRole('dialog', { name: 'Choose models' });
    await expect(picker.getByRole('checkbox', { name: 'gpt-4o', exact: true }).isChecked()).resolves.toBe(true);
    await expect(picker.getByRole('checkbox', { name: /^o3-mini/ }).isChecked()).resolves.toBe(false);
    await expect(picker.getByTestId('picker-count').innerText()).resolves.toBe('1 of 4 selected, 0 new');

    // Search narrows the list; "select all" ticks only what is shown.
    await picker.getByPlaceholder('Search models').fill('mini');
    await picker.getByRole('button', { name: 'Select all' }).click();
    await expect(picker.getByTestId('picker-count').innerText()).resolves.toBe('3 of 4 selected, 2 new');
    await picker.getByPlaceholder('Search models').fill('');
    await picker.getByRole('checkbox', { name: 'gpt-4o', exact: true }).uncheck();
    // Replacing is the default (issue 28); adding, which keeps what the upstream did not list, is chosen.
    await picker.getByText("Add to the channel's models").click();
    await picker
      .getByTestId('picker-effect')
      .getByText('The ticked models are added; the 1 the upstream does not list stay')
      .waitFor();
    await picker.getByRole('button', { name: 'Apply' }).click();
    await picker.waitFor({ state: 'hidden' });

    await drawer.getByRole('button', { name: 'Save' }).click();
    await drawer.waitFor({ state: 'hidden' });
    const row = await c.gateway.test.deps.db
      .selectFrom('channels')
      .select('models')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    // The model the upstream does not list stays; gpt-4o was unticked; the two minis were added.
    expect(row.models.split(',').sort()).toEqual(['gpt-4o-mini', 'my-custom-model', 'o3-mini']);
    expect(c.s.errors).toEqual([]);
  });
});

describe('the channel drawer: applying fetched models replaces by default', () => {
  const upstream: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data: ['local-a', 'local-b'].map((id) => ({ id, object: 'model' })) }));
  });
  beforeAll(() => new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r)));
  afterAll(() => upstream.close());
  const c = rootConsole();

  it('select all, apply: the channel serves exactly the upstream list', async () => {
    const id = await insertChannel(c.gateway.test.deps, {
      name: 'Replace',
      baseUrl: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      models: ['gpt-4o', 'gpt-4.1', 'local-a'],
    });
    await c.gateway.test.deps.services.channels.update(updateChannelInput.parse({ id, test_model: 'gpt-4.1' }));
    await c.s.page.goto(`/channel/edit/${id}`);
    const drawer = c.s.page.getByRole('dialog', { name: `Edit channel #${id}` });
    await drawer.getByRole('button', { name: 'Fetch from upstream' }).click();
    const picker = c.s.page.getByRole('dialog', { name: 'Choose models' });
    await picker.getByRole('button', { name: 'Select all' }).click();
    await picker
      .getByTestId('picker-effect')
      .getByText(
        'The channel will serve only the ticked models; 2 it has now that the upstream does not list will be removed',
      )
      .waitFor();
    await picker.getByRole('button', { name: 'Apply' }).click();
    await picker.waitFor({ state: 'hidden' });
    // The test model is no longer listed: the form says so (it is kept, the admin decides).
    await drawer.getByRole('button', { name: 'Advanced settings' }).click();
    await drawer.getByTestId('test-model-unlisted').waitFor();
    await drawer.getByRole('button', { name: 'Save' }).click();
    await drawer.waitFor({ state: 'hidden' });
    const row = await c.gateway.test.deps.db
      .selectFrom('channels')
      .select(['models', 'test_model'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.models.split(',').sort()).toEqual(['local-a', 'local-b']);
    expect(row.test_model).toBe('gpt-4.1');
    expect(c.s.errors).toEqual([]);
  });
});
