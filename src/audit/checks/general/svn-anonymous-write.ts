import { defineCheck } from '../kit.ts';
import { svnCommitProbe, svnSession } from '../../proto/svn.ts';
import { shown } from '../../proto/talk.ts';

/**
 * svnserve with `anon-access = write`: anyone can commit. Proven without
 * writing: on an anonymous session svnserve checks write access when the
 * `commit` command arrives and answers an empty auth request and success
 * only if the anonymous user may write; the editor's open-root, which would
 * create the transaction, is never sent, and `abort-edit` ends it (the
 * open-relay test's RCPT without DATA, here: safe). svnserve lists no
 * repositories, so a few usual paths are tried (svnserve -r ROOT serves
 * ROOT itself at "/", or the repositories under it by name).
 */
const PATHS = ['', 'repo', 'repos', 'repository', 'svn', 'project', 'test', 'demo', 'example', 'app', 'trunk'];

export default defineCheck({
  id: 'vigil.svn.anonymous-write',
  shortid: 'SVN-ANON-WRITE',
  title: 'Subversion server accepts anonymous commits',
  family: 'General',
  categories: ['safe', 'auth', 'vuln'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    'The Subversion server (svnserve) lets an anonymous user commit: anyone who reaches the port can change, add and delete files in the repository and its history from then on.',
  solution:
    "Set anon-access = read (or none) in the repository's conf/svnserve.conf, give committers accounts (auth-access = write with a password-db or SASL), and serve svn:// only to the networks that need it.",
  references: ['https://svnbook.red-bean.com/en/1.7/svn.serverconfig.svnserve.html#svn.serverconfig.svnserve.auth'],
  ports: { services: ['svn', 'svnserve'], ports: [3690] },
  run: async ({ net, port }) => {
    for (const path of PATHS) {
      const r = await svnSession(net, port, path, svnCommitProbe);
      if (!r) return null; // not svnserve
      if (r.session.failure) continue; // no repository at that path
      if (!r.result?.granted) return null; // a repository, not writable anonymously
      const s = r.session;
      return `An anonymous session on ${shown(s.root ?? s.url, 80)} (mechanisms offered: ${s.mechanisms.join(' ')}; uuid ${shown(s.uuid ?? '?', 40)}) sent "commit": svnserve answered "${shown(r.result.answer, 60)}", an empty auth request and success, granting the commit without credentials. The edit was aborted before open-root; no transaction was created.`;
    }
    return null;
  },
});
