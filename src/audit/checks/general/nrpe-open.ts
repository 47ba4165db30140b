import { nrpeAsk } from '../../proto/nrpe.ts';
import { shown } from '../../proto/talk.ts';
import type { Service } from '../../engine/types.ts';
import { defineCheck } from '../kit.ts';

/**
 * NRPE answering the scanner. The daemon drops clients its allowed_hosts leaves out before it reads
 * their query, so its answer to `_NRPE_CHECK` (the one command NRPE answers itself, with its version,
 * running nothing) proves the scanner may ask for any command defined in nrpe.cfg. Arguments
 * (dont_blame_nrpe=1) are not probed: Debian builds NRPE without --enable-command-args, and its
 * daemon refuses any query with a "!" whatever the setting (measured on 4.1.0: "Request contained
 * command arguments!").
 */
function nrpeCandidate(s: Service): boolean {
  // Port 5666 whatever detection named it (a TLS NRPE is "ssl" there), and anonymous TLS anywhere: NRPE's
  // default is anonymous Diffie-Hellman, whose handshake detection completes with no certificate.
  return s.port === 5666 || (s.tls !== null && s.tls.certificate === null);
}

export default defineCheck({
  id: 'vigil.nrpe.open',
  shortid: 'NRPE-OPEN',
  title: 'NRPE answers anyone',
  family: 'General',
  categories: ['safe', 'discovery', 'default'],
  risk: 'medium',
  type: 'NOTE',
  description:
    "The Nagios remote plugin executor (NRPE) accepts queries from the scanner's address: anyone who reaches it can run every command defined in its configuration and read what they report. Its default TLS (anonymous Diffie-Hellman) authenticates nobody, so only allowed_hosts stands in the way.",
  solution:
    'Set allowed_hosts in nrpe.cfg to the Nagios server only (it is ignored under inetd/xinetd: use only_from there), keep dont_blame_nrpe=0, firewall port 5666, and use TLS with client certificates (ssl_client_certs) rather than anonymous DH.',
  references: ['https://github.com/NagiosEnterprises/nrpe/blob/master/SECURITY.md'],
  ports: { services: ['nrpe'], ports: [5666], where: nrpeCandidate },
  run: async ({ net, port, service }) => {
    const a = await nrpeAsk(net, port, '_NRPE_CHECK', service?.tls != null);
    if (!a || !/^NRPE v?\d/i.test(a.text)) return null;
    const how = a.tls ? `over TLS (${a.cipher ?? 'cipher unknown'})` : 'in the clear (NRPE started without TLS)';
    return `The query "_NRPE_CHECK" (NRPE protocol 2, ${how}) was answered "${shown(a.text, 80)}".`;
  },
});
