/** SMTP (RFC 5321) over the fenced Net: the open-relay question, as the audit and zone health ask it. */
import type { Net } from '../engine/types.ts';
import { code, replyDone, talk } from './talk.ts';

/**
 * Open relay: the server is asked (never told) to accept mail from one
 * outside domain to another. Only the audited address is contacted; no
 * DATA is ever sent, the transaction is reset.
 */
export function probeOpenRelay(net: Net, port: number): Promise<string | null> {
  return talk(net, port, async (c) => {
    if (code(await c.read(4000, replyDone)) !== 220) return null;
    if (code(await c.ask('EHLO vigil-audit.invalid\r\n', 3000, replyDone)) !== 250) return null;
    if (code(await c.ask('MAIL FROM:<relay-probe@vigil-audit.invalid>\r\n', 3000, replyDone)) !== 250) return null;
    const rcpt = code(await c.ask('RCPT TO:<relay-probe@example.net>\r\n', 3000, replyDone));
    c.send('RSET\r\nQUIT\r\n');
    return rcpt === 250 || rcpt === 251
      ? `RCPT TO:<relay-probe@example.net> from <relay-probe@vigil-audit.invalid> was accepted (${rcpt})`
      : null;
  });
}
