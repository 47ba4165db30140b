/** Network services open to abuse: anonymous FTP, open SMTP relay, open DNS recursion, SNMP `public`. */
import dnsPacket from 'dns-packet';
import { code, portCheck, portsOf, replyDone, shown, talk } from './services-kit.ts';
import type { Check } from '../types.ts';
import { WIRE } from '../../../dns/rr/wire-names.ts';

export const ftpAnonymous: Check = portCheck(
  {
    id: 'vigil.ftp.anonymous',
    shortid: 'FTP-ANON',
    title: 'Anonymous FTP login allowed',
    category: 'FTP',
    risk: 'medium',
    cves: ['CVE-1999-0497'],
    type: 'HOLE',
    description:
      'The FTP server accepts the user "anonymous" with any password: whatever it serves is public, and a writable area invites abuse.',
    solution:
      'Disable anonymous access (vsftpd: anonymous_enable=NO; ProFTPD: remove the <Anonymous> block) unless the files are meant to be public.',
  },
  (h) => portsOf(h, ['ftp'], [21]),
  (net, port) =>
    talk(net, port, async (c) => {
      if (code(await c.read(3000, replyDone)) !== 220) return null;
      if (![230, 331].includes(code(await c.ask('USER anonymous\r\n', 3000, replyDone)))) return null;
      const pass =
        c.last.length && code(c.last) === 230
          ? 230
          : code(await c.ask('PASS vigil-audit@example.invalid\r\n', 3000, replyDone));
      c.send('QUIT\r\n');
      return pass === 230 ? 'USER anonymous was logged in (230)' : null;
    }),
);

/**
 * Open relay: the server is asked (never told) to accept mail from one
 * outside domain to another. Only the audited address is contacted; no
 * DATA is ever sent, the transaction is reset.
 */
export const smtpOpenRelay: Check = portCheck(
  {
    id: 'vigil.smtp.open-relay',
    shortid: 'SMTP-RELAY',
    title: 'SMTP server relays mail for anyone',
    category: 'Mail',
    risk: 'high',
    cves: ['CVE-1999-0512'],
    type: 'HOLE',
    description:
      'The mail server accepts a recipient in a foreign domain from an unauthenticated sender in another foreign domain: spammers can send through it and get it block-listed.',
    solution:
      'Relay only for your own domains and authenticated users (Postfix: smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination).',
  },
  (h) => portsOf(h, ['smtp', 'submission'], [25, 587, 2525]),
  (net, port) =>
    talk(net, port, async (c) => {
      if (code(await c.read(4000, replyDone)) !== 220) return null;
      if (code(await c.ask('EHLO vigil-audit.invalid\r\n', 3000, replyDone)) !== 250) return null;
      if (code(await c.ask('MAIL FROM:<relay-probe@vigil-audit.invalid>\r\n', 3000, replyDone)) !== 250) return null;
      const rcpt = code(await c.ask('RCPT TO:<relay-probe@example.net>\r\n', 3000, replyDone));
      c.send('RSET\r\nQUIT\r\n');
      return rcpt === 250 || rcpt === 251
        ? `RCPT TO:<relay-probe@example.net> from <relay-probe@vigil-audit.invalid> was accepted (${rcpt})`
        : null;
    }),
);

/** A recursive question for a name the target is surely not authoritative for. */
export const dnsRecursion: Check = {
  id: 'vigil.dns.recursion',
  shortid: 'DNS-RECURSION',
  title: 'DNS server resolves for anyone (open recursion)',
  category: 'DNS',
  risk: 'medium',
  cves: ['CVE-2006-0987'],
  type: 'HOLE',
  description:
    'The name server performs recursive lookups for any client: it can be used to amplify denial-of-service attacks and its cache can be poisoned.',
  solution:
    'Allow recursion only for your own networks (BIND: allow-recursion { <your networks>; }; Unbound: access-control), or turn it off on an authoritative server (recursion no).',
  active: true,
  intrusive: false,
  dos: false,
  async run(host, net) {
    const ports = [...new Set([53, ...portsOf(host, ['domain'], [])])];
    const out = [];
    for (const port of ports) {
      const id = Math.floor(Math.random() * 65535);
      const query = dnsPacket.encode({
        type: 'query',
        id,
        flags: dnsPacket.RECURSION_DESIRED,
        questions: [{ type: WIRE.A, name: 'www.example.com' }],
      });
      const raw = await net.udpRequest(port, query, { timeoutMs: 2500 }).catch(() => null);
      if (!raw) continue;
      try {
        const r = dnsPacket.decode(raw);
        const ra = ((r.flags ?? 0) & dnsPacket.RECURSION_AVAILABLE) !== 0;
        const rcode = (r as { rcode?: string }).rcode ?? '';
        const aa = ((r.flags ?? 0) & dnsPacket.AUTHORITATIVE_ANSWER) !== 0;
        if (r.id !== id || !ra || aa) continue;
        if (rcode === 'NOERROR' && (r.answers?.length ?? 0) > 0) {
          out.push({
            port,
            detail: `a recursive query for www.example.com was answered with RA set (${r.answers!.length} answer(s))`,
          });
        } else if (rcode === 'SERVFAIL' || rcode === 'NXDOMAIN') {
          // A resolver that tried for us and could not reach the Internet (the outside bench's
          // BIND with allow-recursion { any; } offline): RA set and a resolution failure, where a
          // server that refuses recursion clears RA and answers REFUSED (BIND, NSD, Knot).
          out.push({
            port,
            detail: `a recursive query for www.example.com got ${rcode} with RA set: the server recurses for this client`,
            qod: 80,
          });
        }
      } catch {
        // not DNS: nothing to report
      }
    }
    return out;
  },
};

/** SNMPv2c GetRequest for sysDescr.0 (1.3.6.1.2.1.1.1.0) with community `public`: a fixed BER layout. */
function snmpGet(community: string, requestId: number): Buffer {
  const tlv = (tag: number, body: Buffer) => Buffer.concat([Buffer.from([tag, body.length]), body]);
  const int = (n: number) => tlv(0x02, Buffer.from([(n >> 24) & 0x7f, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]));
  const oid = tlv(0x06, Buffer.from([0x2b, 6, 1, 2, 1, 1, 1, 0]));
  const varbind = tlv(0x30, tlv(0x30, Buffer.concat([oid, Buffer.from([0x05, 0x00])])));
  const pdu = tlv(0xa0, Buffer.concat([int(requestId), int(0), int(0), varbind]));
  return tlv(0x30, Buffer.concat([int(1), tlv(0x04, Buffer.from(community)), pdu]));
}

export const snmpPublic: Check = {
  id: 'vigil.snmp.public',
  shortid: 'SNMP-PUBLIC',
  title: 'SNMP answers to the community "public"',
  category: 'General',
  risk: 'high',
  cves: ['CVE-1999-0517'],
  type: 'HOLE',
  description:
    'The SNMP agent answers the default community string "public": anyone can read the device\'s configuration, interfaces and often routing tables and users.',
  solution:
    'Remove the "public" community from snmpd.conf (or restrict it to a management host) and use SNMPv3 with authentication.',
  active: true,
  intrusive: false,
  dos: false,
  async run(_host, net) {
    const raw = await net.udpRequest(161, snmpGet('public', 0x2a5c), { timeoutMs: 2500 }).catch(() => null);
    // A reply carrying our community and a GetResponse PDU (0xa2).
    if (!raw || raw[0] !== 0x30 || !raw.includes(Buffer.from('public')) || !raw.includes(0xa2)) return [];
    const text = raw.toString('latin1').replace(/[^\x20-\x7e]+/g, ' ');
    const descr = text.slice(text.lastIndexOf('public') + 6).trim();
    return [{ port: 161, detail: `sysDescr read with community "public"${descr ? `: ${shown(descr, 120)}` : ''}` }];
  },
};
