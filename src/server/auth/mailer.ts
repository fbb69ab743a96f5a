import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config/config.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export type SendMail = (mail: Mail) => Promise<void>;

/**
 * Sends through SMTP_URL when set. Without it no mail leaves the machine, and the log says so and how to set SMTP_URL,
 * with the recipient and subject only: a mail's text may carry a password-reset link, which must never reach a log
 * (an administrator makes a reset link from the user's page instead, docs/security.md).
 */
export function createMailer(config: Config, log: FastifyBaseLogger): SendMail {
  if (!config.mail.smtpUrl) {
    return async (mail) => {
      log.warn(
        { mail: { to: mail.to, subject: mail.subject } },
        `Mail to ${mail.to} ("${mail.subject}") was not sent: no mail server is set. Set SMTP_URL ` +
          '(e.g. smtp://user:password@mail.example.org:587) and MAIL_FROM to send mails (docs/settings.md). ' +
          "A password reset link can be made by an administrator on the user's page.",
      );
    };
  }
  const smtpUrl = config.mail.smtpUrl;
  // Loaded with the first mail: most starts send none, and the module is large.
  let transport: Promise<Transporter> | null = null;
  return async (mail) => {
    transport ??= import('nodemailer').then((nodemailer) => nodemailer.default.createTransport(smtpUrl));
    await (await transport).sendMail({ from: config.mail.from, ...mail });
  };
}
