/** SMTP (RFC 5321) over the fenced Net: the open-relay question, as the audit and zone health ask it. */
import type { Net } from '../engine/types.ts';
import type { Conv } from './conv.ts';
import { code, replyDone, shown, talk } from './talk.ts';

const RCPT = 'RCPT TO:<relay-probe@example.net>';
/**
 * The probe's own sender first; then the null reverse-path, which RFC 5321
 * §4.5.5 says a server must accept and which sender verification (Exim's
 * `verify = sender`, Postfix's reject_unknown_sender_domain) always passes:
 * a relay that refused the first only because `vigil-audit.invalid` does not
 * resolve is still asked. Relay restrictions judge the client and the
 * recipient's domain, never the sender, so a closed relay refuses both.
 */
const SENDERS = ['MAIL FROM:<relay-probe@vigil-audit.invalid>', 'MAIL FROM:<>'];

/**
 * Open relay: the server is asked (never told) to accept mail from one
 * outside domain to another. Only the audited address is contacted; no
 * DATA is ever sent, each transaction is reset, so nothing is queued. The
 * detail quotes what was sent and the server's own reply to the RCPT.
 */
export function probeOpenRelay(net: Net, port: number): Promise<string | null> {
  return afterEhlo(net, port, async (c) => {
    for (const from of SENDERS) {
      const mail = await c.ask(`${from}\r\n`, 3000, replyDone);
      if (code(mail) !== 250) continue;
      const rcpt = await c.ask(`${RCPT}\r\n`, 3000, replyDone);
      const n = code(rcpt);
      if (n === 250 || n === 251) {
        c.send('RSET\r\nQUIT\r\n');
        return `${from} (answered ${shown(mail.toString('latin1'), 60)}), then ${RCPT} was accepted (${n}): "${shown(rcpt.toString('latin1'), 100)}". A recipient outside the server's domains, from an unauthenticated client; no DATA was sent and the transaction was reset.`;
      }
      if (code(await c.ask('RSET\r\n', 3000, replyDone)) !== 250) break;
    }
    c.send('QUIT\r\n');
    return null;
  });
}

/**
 * The host name a greeting or EHLO reply announces (`220 mail.example.org
 * ESMTP …`, `250-mail.example.org Hello …`), a dotted name, or null: the
 * domain the server's local users live in, for checks that must name one.
 */
export const announcedName = (reply: string): string | null =>
  /^2[25]0[ -]([a-z0-9-]+(?:\.[a-z0-9-]+)+)\b/im.exec(reply)?.[1]?.toLowerCase() ?? null;

/**
 * How long a session waits for the 220 greeting. RFC 5321 §4.5.3.2.1 gives
 * a client 5 minutes; servers delay it on purpose (Postfix postscreen's
 * greet wait, 6 s by default; Exim's `delay` in acl_smtp_connect) and a
 * loaded one spawns its smtpd late. 10 s costs only a port that accepts
 * and never greets (a tarpit).
 */
const GREETING_MS = 10_000;

/**
 * One SMTP session past the greeting (220) and EHLO (250), then `steps`
 * with the server's announced name (announcedName of the greeting, else of
 * the EHLO reply); null when the server is not an SMTP server that says
 * hello, and on any failure. A server that does not know EHLO (500, 502:
 * older and embedded MTAs) is greeted with HELO instead, as RFC 5321
 * §4.1.4 tells a client to do.
 */
export function afterEhlo<T>(
  net: Net,
  port: number,
  steps: (c: Conv, name: string | null) => Promise<T | null>,
  ms = 15_000,
): Promise<T | null> {
  return talk(
    net,
    port,
    async (c) => {
      const hello = await c.read(GREETING_MS, replyDone);
      if (code(hello) !== 220) return null;
      let ehlo = await c.ask('EHLO vigil-audit.example.invalid\r\n', 4000, replyDone);
      if (code(ehlo) === 500 || code(ehlo) === 502)
        ehlo = await c.ask('HELO vigil-audit.example.invalid\r\n', 4000, replyDone);
      if (code(ehlo) !== 250) return null;
      const text = (b: Buffer) => b.toString('latin1');
      return steps(c, announcedName(text(hello)) ?? announcedName(text(ehlo)));
    },
    ms,
  );
}
