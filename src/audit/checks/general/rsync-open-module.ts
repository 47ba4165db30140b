import { defineCheck } from '../kit.ts';
import { rsyncModules, rsyncOpens } from '../../proto/rsync.ts';
import { shown } from '../../proto/talk.ts';

/** Module names often used when the list is hidden. */
const RSYNC_GUESSES = [
  'backup',
  'backups',
  'data',
  'files',
  'pub',
  'public',
  'share',
  'www',
  'home',
  'srv',
  'mirror',
  'rsync',
];

export default defineCheck({
  id: 'vigil.rsync.open-module',
  shortid: 'RSYNC-OPEN',
  title: 'rsync module readable without authentication',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  cves: ['CVE-1999-0502'],
  type: 'HOLE',
  qod: 95,
  description:
    'The rsync daemon lists its modules and opens one to a client that gives no user or password: everything in it can be downloaded (and uploaded, if the module is not read only).',
  solution:
    'Set "auth users" and "secrets file" on every module of rsyncd.conf, "list = no", and bind rsyncd to trusted addresses.',
  ports: { services: ['rsync'], ports: [873] },
  run: async ({ net, port }) => {
    const listed = await rsyncModules(net, port);
    if (!listed) return null;
    // "list = no" hides a module, not its access: the usual names are tried too.
    const tried = [...new Set([...listed.slice(0, 5), ...RSYNC_GUESSES])];
    const open: string[] = [];
    for (const mod of tried) if (await rsyncOpens(net, port, mod)) open.push(mod);
    return open.length
      ? `modules listed: ${shown(listed.join(', ') || '(none)', 120)}; opened without a password: ${shown(open.join(', '), 120)}`
      : null;
  },
});
