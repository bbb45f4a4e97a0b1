// Sends e-mail over SMTP when SMTP_URL is set; otherwise writes each message to
// DATA_DIR/outbox/<timestamp>-<random>.eml and prints its links, so a person can activate an
// account locally without a mail server.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../config';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Links the message carries; printed to the log in outbox mode. */
  links?: string[];
}

export interface Mailer {
  /** 'smtp' or 'outbox'. */
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export interface MailerOptions {
  /** Where outbox mode prints its lines; standard output by default. */
  log?: (line: string) => void;
}

export function outboxDir(dataDir: string): string {
  return path.join(dataDir, 'outbox');
}

function outboxFileName(now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return `${stamp}-${randomBytes(4).toString('hex')}.eml`;
}

export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>,
  options: MailerOptions = {},
): Mailer {
  const log = options.log ?? ((line: string) => process.stdout.write(line + '\n'));
  const headers = { 'Auto-Submitted': 'auto-generated' };

  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      kind: 'smtp',
      async send(message) {
        await transport.sendMail({
          from: config.mailFrom,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          headers,
        });
      },
      async close() {
        transport.close();
      },
    };
  }

  const dir = outboxDir(config.dataDir);
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(message) {
      const info = await transport.sendMail({
        from: config.mailFrom,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers,
      });
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, outboxFileName(new Date()));
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      log(`[mail] "${message.subject}" to ${message.to} written to ${file}`);
      for (const link of message.links ?? []) log(`[mail]   link: ${link}`);
    },
    async close() {
      transport.close();
    },
  };
}
