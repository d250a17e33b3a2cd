import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/app.ts';
import { createUser, setupRoot } from '../../../test/users.ts';
import { notifyIfCrossed } from './quota-warning.service.ts';

/* The e-mail path: a warning goes through the mailer (nodemailer) to an SMTP server on loopback. */

let t: TestApp;
let smtp: Server;
const mails: { from: string; to: string[]; data: string }[] = [];

/** Just enough SMTP to accept one message per connection (no TLS, no auth). */
function startSmtp(): Promise<Server> {
  const server = createServer((sock) => {
    let buf = '';
    let inData = false;
    let mail = { from: '', to: [] as string[], data: '' };
    sock.write('220 test ESMTP\r\n');
    sock.on('data', (chunk: Buffer) => {
      buf += chunk.toString();
      let i: number;
      while ((i = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            mails.push(mail);
            mail = { from: '', to: [], data: '' };
            sock.write('250 queued\r\n');
          } else mail.data += `${line}\n`;
          continue;
        }
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'MAIL') mail.from = line;
        if (cmd === 'RCPT') mail.to.push(line);
        if (cmd === 'DATA') inData = true;
        if (cmd === 'QUIT') sock.end('221 bye\r\n');
        else sock.write(cmd === 'DATA' ? '354 go\r\n' : '250 ok\r\n');
      }
    });
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r(server)));
}

beforeAll(async () => {
  t = await createTestApp();
  await setupRoot(t);
  smtp = await startSmtp();
  const o = t.deps.services.options;
  await o.update('SMTPServer', '127.0.0.1');
  await o.update('SMTPPort', String((smtp.address() as AddressInfo).port));
  await o.update('SMTPFrom', 'gateway@example.com');
});
afterAll(async () => {
  await new Promise<void>((r) => smtp.close(() => r()));
  await t.close();
});

describe('quota warning by e-mail', () => {
  it('mails the notification address once for a crossing', async () => {
    const u = await createUser(t);
    const setting = JSON.stringify({
      notify_type: 'email',
      quota_warning_threshold: 500_000,
      notification_email: 'me@example.com',
    });
    await t.deps.db.updateTable('users').set({ setting }).where('id', '=', u.id).execute();
    notifyIfCrossed(t.deps, u.id, 700_000, 200_000);
    notifyIfCrossed(t.deps, u.id, 200_000, 100_000);
    await t.deps.services.quotaWarnings.idle();
    expect(mails).toHaveLength(1);
    expect(mails[0].to.join()).toContain('me@example.com');
    expect(mails[0].from).toContain('gateway@example.com');
    expect(mails[0].data).toContain('Subject:');
  });
});
