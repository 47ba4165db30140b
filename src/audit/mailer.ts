import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';

/** A file sent with the mail; nodemailer encodes it (base64 for text/html) and names it in Content-Disposition. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: string;
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
  attachments?: MailAttachment[];
}

/** Where audit mail goes: an SMTP server, or .eml files an operator can read. */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** Sends through the server of `--smtp-url` (smtp:// or smtps://, credentials in the URL). */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    close: () => transport.close(),
  };
}

/** Writes each message as a complete RFC 5322 .eml file in `dir` (written whole, then renamed into place). */
export function outboxMailer(dir: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(mail) {
      const info = await transport.sendMail({ from, ...mail });
      // Mail holds reports of what an audit found: the owner's alone whatever the umask (issue 29).
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const tmp = join(dir, `.${name}.tmp`);
      await writeFile(tmp, info.message as Buffer, { mode: 0o600 });
      await rename(tmp, join(dir, name));
    },
    close: () => transport.close(),
  };
}
