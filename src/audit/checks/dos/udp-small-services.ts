import { defineCheck } from '../kit.ts';
import { describeReply, smallServiceOn, smallUdp } from '../../proto/small-services.ts';
import { shown } from '../../proto/talk.ts';
import { AMPLIFICATION_MIN } from './lib/amplify.ts';

/**
 * inetd's small services over UDP answer any datagram, whoever its source
 * claims to be: chargen (RFC 864: a line of up to 512 characters), daytime
 * (RFC 867) and qotd (RFC 865) amplify a 1-byte datagram tens of times;
 * echo (RFC 862) and time (RFC 868) reflect. Spoofed from one UDP small
 * service to another (echo to chargen), two hosts flood each other without
 * end (CVE-1999-0103, "UDP packet storm", CERT CA-1996-01). One datagram
 * per port; only a reply of the service's own shape counts.
 */
export default defineCheck({
  id: 'vigil.dos.udp-small-services',
  shortid: 'DOS-UDP-SMALL',
  title: 'UDP small services answer anyone (chargen, echo, daytime: amplification and reflection)',
  family: 'Denial of Service',
  categories: ['dos'],
  risk: 'medium',
  type: 'HOLE',
  // CVE-1999-0103 is named in the references, not as a CVE of the finding: the CVSS data (data/cvss-data*.ts) has
  // no NVD facts for it, and a finding's CVEs must carry them (engine/cvss.test.ts).
  description:
    "inetd's small services answer UDP datagrams from anyone: chargen, daytime and qotd send back many times what they get and echo and time reflect it, so they serve to flood third parties with spoofed requests, and two of them aimed at each other loop without end.",
  solution:
    'Turn the small services off (comment out echo, discard, daytime, chargen, time and qotd in inetd.conf or xinetd.d; "no service udp-small-servers" on Cisco IOS) and block UDP ports 7, 13, 17, 19 and 37 at the network edge.',
  references: [
    'https://www.rfc-editor.org/rfc/rfc864',
    'https://www.rfc-editor.org/rfc/rfc862',
    'https://www.cve.org/CVERecord?id=CVE-1999-0103',
  ],
  ports: { udp: [7, 13, 17, 19, 37] },
  run: async ({ net, port }) => {
    const service = smallServiceOn(port, undefined);
    if (!service) return null;
    const r = await smallUdp(net, port, service);
    if (!r) return null;
    const factor = r.reply.length / r.sent.length;
    const what =
      service === 'echo'
        ? `came back byte for byte ("${shown(r.reply.toString('latin1'), 40)}"): a reflector, and aimed at chargen a loop`
        : `was answered with ${r.reply.length} bytes (factor ${factor.toFixed(1)}): ${describeReply(service, r.reply, 60)}`;
    return {
      detail: `UDP ${port} (${service}): a ${r.sent.length}-byte datagram ${what}.`,
      // A reflector that does not amplify (echo, time) is a lesser risk than an amplifier.
      ...(factor < AMPLIFICATION_MIN ? { risk: 'low' as const } : {}),
    };
  },
});
