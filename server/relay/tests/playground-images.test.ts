import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakePng, labelOf } from '../../../scripts/fake-upstream/images/shared.ts';
import { ChannelType } from '../../../shared/channel-types.ts';
import { type FakeImages, IMAGE_KEY, startFakeImages } from '../../../test/browser/scenes/playground-images.ts';
import {
  insertChannel,
  ledger,
  type RelayHarness,
  setOptions,
  startRelayHarness,
} from '../../../test/relay-fixtures.ts';
import { createUser, login } from '../../../test/users.ts';

/*
 * The console's image doors (issue 44): /pg/images/generations and /pg/images/edits run the image relay
 * for the signed-in user (no token), in the group the form names, which never reaches the upstream
 * (the fake, like OpenAI, refuses a field it does not know).
 */
describe('the playground image doors', () => {
  let h: RelayHarness;
  let fake: FakeImages;
  let origin: string;

  beforeAll(async () => {
    h = await startRelayHarness();
    fake = await startFakeImages();
    origin = h.baseURL.replace(/\/v1$/, '');
    await setOptions(h.deps, {
      ModelPrice: JSON.stringify({ 'gpt-image-1': 0.042 }),
      GroupRatio: JSON.stringify({ default: 1, vip: 2 }),
      UserUsableGroups: JSON.stringify({ default: 'Default', vip: 'VIP' }),
    });
    await insertChannel(h.deps, {
      type: ChannelType.OpenAI,
      key: IMAGE_KEY,
      baseUrl: fake.url,
      models: ['gpt-image-1'],
      groups: ['default', 'vip'],
    });
  });
  afterAll(async () => {
    await fake?.close();
    await h?.close();
  });

  it('refuses a caller without a session, in OpenAI shape', async () => {
    const res = await fetch(`${origin}/pg/images/generations`, {
      method: 'POST',
      // English, as the caller asks (the default is Chinese, issue 45).
      headers: { 'content-type': 'application/json', 'accept-language': 'en-US,en;q=0.9' },
      body: JSON.stringify({ model: 'gpt-image-1', prompt: 'a cat' }),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/Not logged in/);
  });

  it('generates for the session user in the group named, billed per picture without a token', async () => {
    const user = await createUser(h.t, { quota: 1_000_000 });
    const { cookie } = await login(h.t, user.username, user.password);
    const res = await fetch(`${origin}/pg/images/generations`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-image-1', prompt: 'two owls', n: 2, size: '1024x1024', group: 'vip' }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { b64_json: string }[] };
    expect(body.data.map((d) => labelOf(Buffer.from(d.b64_json, 'base64')))).toEqual([
      'gen-0:two owls',
      'gen-1:two owls',
    ]);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    await h.drain();
    const l = await ledger(h.deps, user.id, 0);
    // 2 pictures x $0.042 x the vip group's ratio 2.
    expect(l.logs).toHaveLength(1);
    expect(l.logs[0]).toMatchObject({ token_id: 0, group: 'vip', quota: 84_000 });
    expect(l.logs[0].request_id).toBe(res.headers.get('x-request-id'));
    expect(JSON.parse(l.logs[0].other)).toMatchObject({ image_count: 2, image_size: '1024x1024' });
    expect(Number(l.user.quota)).toBe(1_000_000 - 84_000);
  });

  it('edits an uploaded picture sent as multipart; the group field is consumed, not relayed', async () => {
    const user = await createUser(h.t, { quota: 1_000_000 });
    const { cookie } = await login(h.t, user.username, user.password);
    const form = new FormData();
    form.set('model', 'gpt-image-1');
    form.set('prompt', 'add a hat');
    form.set('group', 'default');
    form.set('image', new Blob([new Uint8Array(fakePng(32, 32, 'owl'))], { type: 'image/png' }), 'owl.png');
    const res = await fetch(`${origin}/pg/images/edits`, { method: 'POST', headers: { cookie }, body: form });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { b64_json: string }[] };
    expect(labelOf(Buffer.from(body.data[0].b64_json, 'base64'))).toBe('edit-0:owl');
    const sent = fake.calls.at(-1)!;
    expect(sent).toMatchObject({ path: 'edits', inputLabel: 'owl' });
    expect(sent.fields).toEqual(['image', 'model', 'prompt']);
    await h.drain();
    const l = await ledger(h.deps, user.id, 0);
    expect(l.logs[0]).toMatchObject({ token_id: 0, group: 'default', quota: 21_000 });
  });
});
