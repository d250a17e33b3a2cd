import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { TestApp } from '../app.ts';
import { setOption } from '../users.ts';

/*
 * A real SMTP server on loopback (the smtp-server package) that keeps every
 * delivered message, decoded enough to read codes and links as a person would.
 */

export interface DeliveredMail {
  to: string[];
  subject: string;
  /** The decoded text of every part, joined. */
  text: string;
}

function decodePart(headers: string, body: string): string {
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const joined = body.replace(/=\r?\n/g, '');
    const bytes: number[] = [];
    for (let i = 0; i < joined.length; i++) {
      if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(joined.slice(i + 1, i + 3))) {
        bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
        i += 2;
      } else bytes.push(...Buffer.from(joined[i] ?? '', 'utf8'));
    }
    return Buffer.from(bytes).toString('utf8');
  }
  return body;
}

/** RFC 2047 encoded words in the subject (=?UTF-8?B?...?= / Q). */
function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_, kind: string, text: string) =>
    kind.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodePart('content-transfer-encoding: quoted-printable', text.replace(/_/g, ' ')),
  );
}

export function parseMail(raw: string, to: string[]): DeliveredMail {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const subject = decodeHeader(/^subject:\s*(.*)$/im.exec(unfolded)?.[1] ?? '');
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(unfolded)?.[1];
  const body = rest.join('\n\n');
  if (!boundary) return { to, subject, text: decodePart(unfolded, body) };
  const parts = body.split(`--${boundary}`).slice(1, -1);
  const text = parts
    .map((part) => {
      const [h = '', ...b] = part.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
      return decodePart(h, b.join('\n\n'));
    })
    .join('\n');
  return { to, subject, text };
}

export interface Mailbox {
  port: number;
  mails: DeliveredMail[];
  /** Waits for the next mail to `address` (delivery is asynchronous to the HTTP answer). */
  next(address: string, timeoutMs?: number): Promise<DeliveredMail>;
  close(): Promise<void>;
}

export async function startMailbox(): Promise<Mailbox> {
  const mails: DeliveredMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push(
          parseMail(
            Buffer.concat(chunks).toString('utf8'),
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const taken = new Set<number>();
  return {
    port,
    mails,
    async next(address, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const i = mails.findIndex((m, idx) => !taken.has(idx) && m.to.includes(address));
        if (i >= 0) {
          taken.add(i);
          return mails[i] as DeliveredMail;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${address}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Points the gateway's SMTP options at the mailbox. */
export async function useMailbox(t: TestApp, box: Mailbox): Promise<void> {
  await setOption(t, 'SMTPServer', '127.0.0.1');
  await setOption(t, 'SMTPPort', String(box.port));
  await setOption(t, 'SMTPFrom', 'gateway@example.com');
}
