import type { Transporter } from 'nodemailer';
import { badRequest } from '../../errors.ts';
import type { OptionsService } from '../options/options.service.ts';

/*
 * The one way the server sends e-mail (quota warnings, verification codes, password
 * resets). Configured from the SMTP* options at send time, so a changed setting
 * applies to the next message without a restart; the transport is reused while the
 * settings stay the same.
 */

export interface MailMessage {
  to: string;
  subject: string;
  /** HTML body; a plain-text copy is derived for clients without HTML. */
  html: string;
}

export type SendMail = (message: MailMessage) => Promise<void>;
export type MailService = ReturnType<typeof createMailService>;

export function createMailService(options: OptionsService) {
  let cached: { signature: string; transport: Transporter } | undefined;

  // Loaded at the first message: most gateways send mail rarely or never.
  async function transport(): Promise<Transporter> {
    const server = options.get('SMTPServer').trim();
    if (server === '') throw badRequest('mail.smtp_unconfigured');
    const port = options.get('SMTPPort');
    const account = options.get('SMTPAccount');
    const password = options.get('SMTPToken');
    // Port 465 is implicit TLS everywhere; the switch covers providers using it on other ports.
    const secure = options.get('SMTPSSLEnabled') || port === 465;
    const signature = JSON.stringify([server, port, account, password, secure]);
    if (cached?.signature !== signature) {
      const { default: nodemailer } = await import('nodemailer');
      cached?.transport.close();
      cached = {
        signature,
        transport: nodemailer.createTransport({
          host: server,
          port,
          secure,
          auth: account ? { user: account, pass: password } : undefined,
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 20_000,
        }),
      };
    }
    return cached.transport;
  }

  const sendMail: SendMail = async ({ to, subject, html }) => {
    const from = options.get('SMTPFrom') || options.get('SMTPAccount');
    const name = options.get('SystemName');
    await (
      await transport()
    ).sendMail({
      from: name ? { name, address: from } : from,
      to,
      subject,
      html,
      text: html.replace(/<[^>]+>/g, ''),
    });
  };

  return {
    sendMail,
    /** Whether SMTP is filled in enough to try (features hide their e-mail option otherwise). */
    configured: () =>
      options.get('SMTPServer').trim() !== '' && (options.get('SMTPFrom') || options.get('SMTPAccount')) !== '',
  };
}
