import { unboundStatus } from '../../proto/unbound-control.ts';
import { shown } from '../../proto/talk.ts';
import { defineCheck } from '../kit.ts';

/**
 * Unbound's remote control in plaintext (control-use-cert: no) on a
 * network address: `UBCT1 status` is answered with the version and "is
 * running". That answer is the proof; behind TLS with client certificates
 * (the default) the line is dropped unanswered, and nothing is reported.
 * Only `status` is sent.
 */
export default defineCheck({
  id: 'vigil.unbound.control-open',
  shortid: 'UNBOUND-CONTROL-OPEN',
  title: 'Unbound remote control without certificates',
  family: 'DNS',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    "Unbound's remote control accepts commands in plaintext without client certificates: anyone who reaches the port is an unbound-control user and can add local data or forward zones (redirecting every name the resolver answers), flush or dump the cache, change the configuration at run time, and stop the server.",
  solution:
    'Set control-use-cert: yes in the remote-control section (keys from unbound-control-setup), or put control-interface on a Unix socket path (/run/unbound.ctl) or 127.0.0.1 only.',
  references: ['https://unbound.docs.nlnetlabs.nl/en/latest/manpages/unbound.conf.html#unbound-conf-remote-control'],
  ports: { services: ['ub-dns-control', 'unbound-control'], ports: [8953] },
  run: async ({ net, port }) => {
    const s = await unboundStatus(net, port);
    if (!s) return null;
    const shownLines = s.lines.filter((l) => /^(version|uptime|options):|is running/.test(l)).map((l) => shown(l, 60));
    return `"UBCT1 status" sent in the clear was answered "${shownLines.join(' | ')}".`;
  },
});
