import { defineCheck } from '../kit.ts';
import { describeReply, smallServiceOn, smallTcp } from '../../proto/small-services.ts';
import { shown } from '../../proto/talk.ts';

/**
 * inetd's small services over TCP (echo, daytime, qotd, chargen, time):
 * relics nothing needs, which tell the host's clock and OS family and feed
 * loops and connection floods (chargen streams without end). Proof is the
 * service's own shape (proto/small-services.ts): the echoed random token,
 * the chargen pattern, a clock, RFC 868 seconds.
 */
export default defineCheck({
  id: 'vigil.inetd.small-services',
  shortid: 'SMALL-SERVICES',
  title: 'inetd small services open (echo, chargen, daytime, time, qotd)',
  family: 'General',
  categories: ['safe', 'discovery', 'default'],
  risk: 'low',
  type: 'NOTE',
  description:
    "inetd's small services (echo, chargen, daytime, qotd, time) answer on TCP: nothing needs them today, they reveal the host's clock and the kind of system, and chargen streams data without end to whoever connects.",
  solution:
    'Turn them off: comment out echo, discard, daytime, chargen, time and qotd in /etc/inetd.conf or /etc/xinetd.d ("no service tcp-small-servers" on Cisco IOS).',
  references: ['https://www.rfc-editor.org/rfc/rfc864', 'https://www.rfc-editor.org/rfc/rfc862'],
  ports: { services: ['echo', 'daytime', 'qotd', 'chargen', 'time'], ports: [7, 13, 17, 19, 37] },
  run: async ({ net, port, service }) => {
    const kind = smallServiceOn(port, service?.name);
    if (!kind) return null;
    const r = await smallTcp(net, port, kind);
    if (!r) return null;
    return kind === 'echo'
      ? `TCP ${port} (echo): sent "${shown(r.sent.toString('latin1'))}", the same came back.`
      : kind === 'chargen'
        ? `TCP ${port} (chargen) streamed unasked: ${describeReply(kind, r.reply)}….`
        : `TCP ${port} (${kind}) sent unasked ${r.reply.length} bytes: ${describeReply(kind, r.reply)}.`;
  },
});
