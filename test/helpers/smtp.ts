import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  /** Every message received, in order: its envelope recipients, its bytes and its text. */
  mails: { to: string[]; raw: Buffer; data: string }[];
  url: string;
  close(): Promise<void>;
}

/** A real SMTP server on loopback that keeps what it receives (as test/audits.test.ts's own). */
export async function smtpSink(): Promise<SmtpSink> {
  const mails: SmtpSink['mails'] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, cb) {
      // Bytes first: a multi-byte character may be split across chunks.
      const parts: Buffer[] = [];
      stream.on('data', (d: Buffer) => parts.push(d));
      stream.on('end', () => {
        const raw = Buffer.concat(parts);
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, data: raw.toString('utf8') });
        cb();
      });
    },
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
  const port = (server.server.address() as { port: number }).port;
  return { mails, url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((res) => server.close(() => res())) };
}

/**
 * A mail as text to match: its headers unfolded (RFC 5322 2.2.3: a long
 * Subject is continued on lines that begin with a blank) and
 * quoted-printable soft breaks joined (the text part is 7bit when its lines are short).
 */
export function bodyOf(data: string): string {
  const end = data.search(/\r?\n\r?\n/);
  const [head, body] = end < 0 ? [data, ''] : [data.slice(0, end), data.slice(end)];
  return head.replace(/\r?\n(?=[ \t])/g, '') + body.replace(/=\r?\n/g, '');
}
