import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createUser, setupRoot } from '../../../test/users.ts';
import { createQuotaWarningService, notifyIfCrossed } from './quota-warning.service.ts';
import { signWebhookBody } from './webhook.client.ts';

let t: TestApp;
let server: Server;
let hookUrl: string;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await setupRoot(t);
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await t.close();
});
beforeEach(() => {
  received.length = 0;
});

/** Webhook users; the https rule is the settings screen's, so the loopback receiver is written straight in. */
async function webhookUser(threshold: number, secret = 'hook-secret') {
  const u = await createUser(t);
  const setting = JSON.stringify({
    notify_type: 'webhook',
    quota_warning_threshold: threshold,
    webhook_url: hookUrl,
    webhook_secret: secret,
  });
  await t.deps.db.updateTable('users').set({ setting }).where('id', '=', u.id).execute();
  return u;
}

describe('quota warning', () => {
  it('one signed POST for a crossing, none for further spending below the threshold', async () => {
    const u = await webhookUser(500_000);
    notifyIfCrossed(t.deps, u.id, 600_000, 450_000);
    notifyIfCrossed(t.deps, u.id, 450_000, 300_000);
    notifyIfCrossed(t.deps, u.id, 300_000, 100_000);
    await t.deps.services.quotaWarnings.idle();
    expect(received).toHaveLength(1);
    const [hit] = received;
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['x-webhook-signature']).toBe(signWebhookBody(hit.body, 'hook-secret'));
    const payload = JSON.parse(hit.body);
    expect(payload).toMatchObject({ type: 'quota_warning', title: '您的额度即将用尽', values: ['$0.90'] });
    expect(payload.content).toContain('{{value}}');
    expect(Math.abs(payload.timestamp - Date.now() / 1000)).toBeLessThan(60);
  });

  it('the same crossing replayed is not sent twice', async () => {
    const u = await webhookUser(500_000);
    notifyIfCrossed(t.deps, u.id, 600_000, 400_000);
    notifyIfCrossed(t.deps, u.id, 600_000, 400_000);
    await t.deps.services.quotaWarnings.idle();
    expect(received).toHaveLength(1);
  });

  it('nothing while the quota stays above the threshold', async () => {
    const u = await webhookUser(100_000);
    notifyIfCrossed(t.deps, u.id, 600_000, 400_000);
    notifyIfCrossed(t.deps, u.id, 400_000, 100_000);
    await t.deps.services.quotaWarnings.idle();
    expect(received).toHaveLength(0);
  });

  it('warns again after the quota went back above the threshold', async () => {
    // A separate instance without the per-user interval, to see the re-arming itself.
    const service = createQuotaWarningService(t.deps, t.deps.services.options, t.deps.services.mail.sendMail, {
      minIntervalMs: 0,
    });
    const deps = { services: { quotaWarnings: service } };
    const u = await webhookUser(500_000);
    notifyIfCrossed(deps, u.id, 600_000, 400_000); // warned
    notifyIfCrossed(deps, u.id, 400_000, 300_000); // still below
    notifyIfCrossed(deps, u.id, 300_000, 900_000); // topped up (seen by a refund/settle)
    notifyIfCrossed(deps, u.id, 900_000, 450_000); // a new crossing
    notifyIfCrossed(deps, u.id, 2_000_000, 100_000); // top-up not seen by us, then a crossing
    await service.idle();
    expect(received).toHaveLength(3);
  });

  it('no signature header without a secret; e-mail users without SMTP get nothing and nothing breaks', async () => {
    const u = await webhookUser(500_000, '');
    notifyIfCrossed(t.deps, u.id, 600_000, 400_000);
    const mailUser = await createUser(t);
    notifyIfCrossed(t.deps, mailUser.id, 600_000, 400_000);
    await t.deps.services.quotaWarnings.idle();
    expect(received).toHaveLength(1);
    expect(received[0].headers['x-webhook-signature']).toBeUndefined();
  });
});
