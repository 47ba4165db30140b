import { holdSilent, RAW_PRINT_PORTS } from '../../proto/raw-print.ts';
import { shown } from '../../proto/talk.ts';
import { defineCheck } from '../kit.ts';

/**
 * A raw printing port (JetDirect / AppSocket) that takes jobs from anyone:
 * the protocol has no authentication, so a port that accepts this scanner
 * prints what any host sends. Only ports detection named `jetdirect` are
 * tried: there, detection's one probe was PJL's status query (nmap's
 * hp-pjl), answered with a printer model or met with silence, where an
 * HTTP or TLS service on 9100 answers it otherwise and is named so. Proof
 * here: a connection with nothing sent, held open by the server for
 * 1.5 s (a raw port behind TCP wrappers or an ACL closes it at once), and
 * the PJL answer when there was one. This check sends no byte, so nothing
 * is printed; medium when PJL answered (PJL also reads and changes the
 * printer's settings and, on many models, its file system), else low.
 */
export default defineCheck({
  id: 'vigil.jetdirect.open',
  shortid: 'RAW-PRINT',
  title: 'Raw printing port (JetDirect/AppSocket) accepts jobs from anyone',
  family: 'General',
  categories: ['safe', 'discovery', 'default'],
  risk: 'low',
  type: 'NOTE',
  description:
    'A raw printing port (HP JetDirect / AppSocket, TCP 9100) accepts connections from this scanner: the protocol has no authentication, so any host that reaches it prints what it sends (paper and toner spam, a way in to the printing stack), and on a PJL printer reads and changes its settings.',
  solution:
    "Let only the print server reach the port (the printer's own access list, TCP wrappers for p910nd in /etc/hosts.allow and hosts.deny, or a firewall), print through a spooler (CUPS) that authenticates its clients, and turn raw printing off where nothing uses it.",
  references: [
    'https://nmap.org/book/vscan-fileformat.html#vscan-fileformat-exclude',
    'http://hacking-printers.net/wiki/index.php/Port_9100_printing',
  ],
  ports: { services: ['jetdirect', 'pdl-datastream'] },
  run: async ({ net, port, service }) => {
    if (!service || !RAW_PRINT_PORTS.includes(port)) return null;
    const hold = await holdSilent(net, port);
    if (hold !== 'held') return null;
    const pjl = service.extra.pjlId;
    const held = `A connection to TCP ${port} with nothing sent was held open by the server for 1.5 s (a port that refuses this client closes it at once)`;
    if (pjl !== undefined)
      return {
        detail: `${held}, and detection's PJL status query (UEL @PJL INFO ID UEL) was answered "${shown(pjl, 80)}": the port takes print jobs and PJL commands from anyone.`,
        risk: 'medium',
      };
    return `${held}; detection's PJL status query (UEL @PJL INFO ID UEL, nmap's hp-pjl probe) met silence there, as a raw print port without PJL readback does, where HTTP and TLS services answer it: the port takes print jobs from anyone. Nothing was sent by this check.`;
  },
});
