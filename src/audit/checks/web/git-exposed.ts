import { defineCheck } from '../kit.ts';
import { first, get, notHtml } from './lib/probes.ts';
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
    const a = await get(net, svc, '/.git/HEAD');
    if (a && a.status === 200 && /^(ref: refs\/\S+|[0-9a-f]{40})\s*$/m.test(a.body.slice(0, 200)))
      return `/.git/HEAD: ${first(a.body.trim())}`;
    // HEAD denied or absent but config served (a partial copy, or a deny rule on HEAD only): git's own config format.
    const c = await get(net, svc, '/.git/config');
    return c &&
      c.status === 200 &&
      notHtml(c) &&
      /^\[core\]\s*$/m.test(c.body) &&
      /repositoryformatversion\s*=/.test(c.body)
      ? '/.git/config is readable ([core] repositoryformatversion).'
      : null;
  },
});
