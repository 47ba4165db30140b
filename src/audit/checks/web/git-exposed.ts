import { defineCheck } from '../kit.ts';
import { first, notHtml, provenGet } from './lib/probes.ts';
import { isHttpService } from '../../proto/http.ts';

export default defineCheck({
  id: 'vigil.http.git-exposed',
  shortid: 'HTTP-GIT',
  title: 'Git repository exposed (/.git/)',
  family: 'Web Servers',
  categories: ['safe', 'vuln', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    'The web root contains a .git directory: anyone can download the source code, its history and any secrets committed to it.',
  solution:
    'Remove the .git directory from the web root, or deny /.git in the server configuration (Apache: RedirectMatch 404 /\\.git; nginx: location ~ /\\.git { deny all; }).',
  ports: { where: isHttpService },
  async run({ net, service }) {
    const svc = service!;
    // Proof is git's own format, on a path a random twin of which does not answer the same (lib/probes.ts).
    const a = await provenGet(net, svc, '/.git/HEAD', (x) =>
      /^(ref: refs\/\S+|[0-9a-f]{40})\s*$/m.test(x.body.slice(0, 200)),
    );
    if (a) return `/.git/HEAD: ${first(a.body.trim())}`;
    // HEAD denied or absent but config served (a partial copy, or a deny rule on HEAD only): git's own config format.
    const c = await provenGet(
      net,
      svc,
      '/.git/config',
      (x) => notHtml(x) && /^\[core\]\s*$/m.test(x.body) && /repositoryformatversion\s*=/.test(x.body),
    );
    return c ? '/.git/config is readable ([core] repositoryformatversion).' : null;
  },
});
