/**
 * Services that hold data or control and let anyone in, each confirmed by
 * the protocol's own answer: an rsync module opened without a password, an
 * X server that accepts a client with no authorization, an LDAP directory
 * that returns entries to an anonymous bind.
 */
import type { Check } from '../types.ts';
import { ldapAnonymousRead } from './auth-ldap.ts';
import { portCheck, portsOf, shown, talk } from './services-kit.ts';

/** rsyncd's greeting, "@RSYNCD: <protocol>[.<sub>]" (rsync/clientserver.c). */
const RSYNC_HELLO = /^@RSYNCD: (\d+)(?:\.(\d+))?/;
const lineDone = (b: Buffer) => b.includes(10);
/**
 * We announce protocol 30: rsync 3.2's protocol 32 insists on a digest list after the version ("your client
 * omitted the digest name list").
 */
const CLIENT_HELLO = '@RSYNCD: 30.0\n';

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

/** Module names the daemon lists (an empty request line asks for the list; it ends with "@RSYNCD: EXIT"). */
function rsyncModules(net: Parameters<Check['run']>[1], port: number) {
  return talk(net, port, async (c) => {
    const hello = (await c.read(3000, lineDone)).toString('latin1');
    const m = RSYNC_HELLO.exec(hello);
    if (!m) return null;
    const list = (
      await c.ask(`${CLIENT_HELLO}\n`, 3000, (b) => b.includes('@RSYNCD: EXIT') || b.includes('@ERROR'))
    ).toString('latin1');
    return list
      .split('\n')
      .map((l) => l.split('\t')[0]!.trim())
      .filter((n) => n && !n.startsWith('@') && /^[\w.+-]{1,64}$/.test(n))
      .slice(0, 20);
  });
}

/** "@RSYNCD: OK" after naming the module: no auth users on it; "@RSYNCD: AUTHREQD <challenge>" when there are. */
function rsyncOpens(net: Parameters<Check['run']>[1], port: number, module: string) {
  return talk(net, port, async (c) => {
    const m = RSYNC_HELLO.exec((await c.read(3000, lineDone)).toString('latin1'));
    if (!m) return null;
    const r = (
      await c.ask(`${CLIENT_HELLO}${module}\n`, 3000, (b) =>
        /@RSYNCD: (OK|AUTHREQD|EXIT)|@ERROR/.test(b.toString('latin1')),
      )
    ).toString('latin1');
    return /(^|\n)@RSYNCD: OK/.test(r);
  });
}

export const rsyncOpenModule: Check = portCheck(
  {
    id: 'vigil.rsync.open-module',
    shortid: 'RSYNC-OPEN',
    title: 'rsync module readable without authentication',
    category: 'General',
    risk: 'high',
    cves: ['CVE-1999-0502'],
    type: 'HOLE',
    qod: 95,
    description:
      'The rsync daemon lists its modules and opens one to a client that gives no user or password: everything in it can be downloaded (and uploaded, if the module is not read only).',
    solution:
      'Set "auth users" and "secrets file" on every module of rsyncd.conf, "list = no", and bind rsyncd to trusted addresses.',
  },
  (h) => portsOf(h, ['rsync'], [873]),
  async (net, port) => {
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
);

/**
 * X11 connection setup (X Window System Protocol, ch. 8): byte order 'l'
 * (little-endian), protocol 11.0, no authorization name or data. The first
 * reply byte is 0 Failed, 1 Success, 2 Authenticate; Success means any
 * client may read the screen and inject keystrokes (xhost +, Xvfb -ac).
 */
const X11_SETUP = Buffer.from([0x6c, 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

export const x11Open: Check = portCheck(
  {
    id: 'vigil.x11.open',
    shortid: 'X11-OPEN',
    title: 'X11 display server accepts any client',
    category: 'Remote Access',
    risk: 'high',
    cves: ['CVE-1999-0526'],
    type: 'HOLE',
    qod: 99,
    desktop: true,
    description:
      'The X server accepted a connection without any authorization (access control disabled, as with "xhost +" or -ac): anyone who reaches it can watch the screen, log keystrokes and type commands into open terminals.',
    solution: 'Enable access control (xauth cookies), start X with -nolisten tcp, and tunnel X over SSH.',
  },
  (h) => portsOf(h, ['X11', 'x11'], [6000, 6001, 6002, 6003, 6004, 6005]),
  (net, port) =>
    talk(net, port, async (c) => {
      // Success: 8-byte header then the rest (length in 4-byte units at offset 6); vendor length at 24, vendor at 40.
      const r = await c.ask(X11_SETUP, 3000, (b) => b.length >= 8 && b.length >= 8 + 4 * b.readUInt16LE(6));
      if (r.length < 40 || r[0] !== 1 || r.readUInt16LE(2) !== 11) return null;
      const vendor = r.subarray(40, 40 + r.readUInt16LE(24)).toString('latin1');
      return `X11 connection setup without authorization succeeded (protocol 11.${r.readUInt16LE(4)}, vendor "${shown(vendor, 60)}")`;
    }),
);

export const ldapAnonymous: Check = portCheck(
  {
    id: 'vigil.ldap.anonymous',
    shortid: 'LDAP-ANON',
    title: 'LDAP directory readable by an anonymous bind',
    category: 'General',
    risk: 'medium',
    cves: ['CVE-1999-0385'],
    type: 'HOLE',
    qod: 99,
    description:
      'The LDAP server accepted an anonymous bind and returned directory entries from its naming context: user names, groups, mail addresses and often more can be harvested by anyone.',
    solution:
      'Require authentication for directory data ("disallow bind_anon", or ACLs "by anonymous auth") and leave only the root DSE public.',
  },
  (h) => portsOf(h, ['ldap'], [389]),
  async (net, port) => {
    const r = await ldapAnonymousRead(net, port);
    return r && r.entries > 0
      ? `anonymous bind accepted; a search of "${shown(r.base, 80)}" returned ${r.entries} entr${r.entries === 1 ? 'y' : 'ies'} (${shown(r.sample, 120)})`
      : null;
  },
);

export const AUTH_OPEN_CHECKS: readonly Check[] = [rsyncOpenModule, x11Open, ldapAnonymous];
