import { defineCheck } from '../kit.ts';
import { type DistccReply, distccJob, exitCode } from '../../proto/distcc.ts';
import { shown } from '../../proto/talk.ts';

/** A program no system has: asking for it runs nothing, and only a server without a whitelist tries. */
const NO_SUCH = 'vigil-scanner-no-such-compiler';
const job = (compiler: string) => [compiler, '-c', 'vigil-scanner.c', '-o', 'vigil-scanner.o'];

const quoted = (argv: readonly string[]) => argv.join(' ');
const replied = (r: DistccReply) =>
  `${r.head.slice(0, 24)}…: exit ${exitCode(r.status)}${r.serr.trim() ? `, stderr "${shown(r.serr, 140)}"` : ''}${r.objectBytes ? `, a ${r.objectBytes}-byte object file` : ''}${r.compiler ? ` (${shown(r.compiler, 60)})` : ''}`;

/**
 * distccd takes compile jobs from the scanner (CVE-2004-2687: distcc runs
 * jobs without any authorization check; only --allow restricts who may
 * send them). Two jobs, each proven by distccd's reply (a client outside
 * --allow is closed before any byte, serve.c):
 * 1. a job for a compiler that exists nowhere: a distccd that tries to
 *    exec it ("failed to exec …: No such file or directory") runs any
 *    program a client names, the original CVE (distcc before 3.3, or 3.3+
 *    with --enable-tcp-insecure / --make-me-a-botnet). Nothing runs: the
 *    exec fails.
 * 2. else `cc -c` of an empty source, which is what nmap's -sV DistCCD
 *    probe sends: the compiler's ordinary work on a file with nothing in
 *    it, the scanner's choice of neither program nor input. A reply proves
 *    that anyone who reaches the port may run the whitelisted compilers,
 *    with options of their choosing, on the server's CPUs.
 * Never a shell or a program of the scanner's choosing (that is the
 * intrusive vigil.distcc.exec).
 */
export default defineCheck({
  id: 'vigil.distcc.open',
  shortid: 'DISTCC-OPEN',
  title: 'distccd accepts compile jobs from anyone',
  family: 'General',
  categories: ['safe', 'vuln', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  cves: ['CVE-2004-2687'],
  description:
    'The distcc daemon ran a compile job sent by the scanner: distcc has no authentication, and this server does not restrict by --allow who may send jobs. Anyone who reaches the port runs programs as the distccd user: any program at all where the daemon does not limit jobs to its compiler whitelist, else the compilers, with any options, on any input.',
  solution:
    'Start distccd with --allow listing only the build hosts (never 0.0.0.0/0; Debian: ALLOWEDNETS in /etc/default/distcc), keep the compiler whitelist on (no --enable-tcp-insecure or --make-me-a-botnet; distcc 3.3 or later), and firewall port 3632 from other networks; distcc over SSH (DISTCC_HOSTS=@host) needs no open port at all.',
  references: ['https://distcc.github.io/security.html', 'https://github.com/distcc/distcc/issues/155'],
  ports: { services: ['distccd', 'distcc'], ports: [3632] },
  run: async ({ net, port }) => {
    const anyArgv = job(NO_SUCH);
    const tried = await distccJob(net, port, anyArgv);
    if (!tried) return null;
    if (tried.replied) {
      // Only a server that tried to run the named program says it could not exec it.
      if (!/failed to exec|No such file or directory|not found/i.test(tried.reply.serr)) return null;
      return `A job for "${quoted(anyArgv)}" (a program that exists nowhere) was answered ${replied(tried.reply)}: distccd tries to run whatever program a client names (no compiler whitelist).`;
    }
    for (const compiler of ['cc', 'gcc']) {
      const argv = job(compiler);
      const r = await distccJob(net, port, argv);
      if (!r) return null;
      if (!r.replied) continue;
      return `A job for "${quoted(argv)}" with an empty source was answered ${replied(r.reply)}; a job for "${NO_SUCH}" was closed without a reply (compilers limited to the whitelist).`;
    }
    return null;
  },
});
