import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Config } from '../config/config.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export type SendMail = (mail: Mail) => Promise<void>;

/** Sends through SMTP_URL when set; otherwise writes the mail to the server log so a link is never lost. */
export function createMailer(config: Config, log: FastifyBaseLogger): SendMail {
  if (!config.mail.smtpUrl) {
    return async (mail) => {
      log.info({ mail }, `Mail to ${mail.to} (no SMTP_URL set, so it is written here): ${mail.subject}\n${mail.text}`);
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
