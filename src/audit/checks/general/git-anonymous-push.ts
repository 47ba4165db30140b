import { defineCheck } from '../kit.ts';
import { gitAdvertise, type GitAdvertisement } from '../../proto/git.ts';
import { shown } from '../../proto/talk.ts';

/**
 * git daemon with the receive-pack service enabled (`--enable=receive-pack`,
 * or `daemon.receivepack` in a repository): anyone can push, since the git
 * protocol has no authentication. The proof is the receive-pack reference
 * advertisement for a repository, ended by a flush-pkt before any command,
 * so nothing is pushed (what `git ls-remote --receive-pack` shows).
 * git daemon lists no repositories, so a short list of usual paths is
 * tried (with --base-path they are /<name>.git or /<name>); a repository
 * elsewhere is not found. A daemon that answers ERR is not reported.
 */
const PATHS = [
  '/',
  '/repo.git',
  '/repo',
  '/project.git',
  '/project',
  '/test.git',
  '/test',
  '/demo.git',
  '/example.git',
  '/app.git',
  '/git',
  '/code.git',
  '/main.git',
  '/srv/git/repo.git',
];

export default defineCheck({
  id: 'vigil.git.anonymous-push',
  shortid: 'GIT-ANON-PUSH',
  title: 'git daemon accepts anonymous pushes',
  family: 'General',
  categories: ['safe', 'auth', 'vuln'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    'The git daemon offers its receive-pack service to anyone: the git protocol has no authentication, so anyone who reaches the port can push commits, rewrite branches and delete them in the repositories it exports.',
  solution:
    'Do not enable receive-pack on git daemon (drop --enable=receive-pack, unset daemon.receivepack); push over SSH or authenticated HTTPS instead, and serve git:// read-only.',
  references: ['https://git-scm.com/docs/git-daemon'],
  ports: { services: ['git'], ports: [9418] },
  run: async ({ net, port }) => {
    for (const path of PATHS) {
      const r = await gitAdvertise(net, port, 'receive-pack', path);
      if (!r) return null; // not a git daemon, or it went away: no more guesses
      if ('error' in r) continue;
      const ad = r as GitAdvertisement;
      const refs = ad.refs.map((l) => l.split(' ')[1]).filter(Boolean);
      return `"git-receive-pack ${path}" was answered with the reference advertisement a push starts from, without authentication: ${refs.length} ref(s) (${shown(refs.slice(0, 4).join(', '), 100)}), capabilities "${shown(ad.capabilities.filter((c) => !c.startsWith('agent=')).join(' '), 90)}". The exchange was ended by a flush-pkt before any command; nothing was pushed.`;
    }
    return null;
  },
});
