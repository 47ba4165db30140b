/** The rsync daemon protocol (rsync/clientserver.c): the module list, and whether a module opens without a password. */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

/** rsyncd's greeting, "@RSYNCD: <protocol>[.<sub>]" (rsync/clientserver.c). */
const RSYNC_HELLO = /^@RSYNCD: (\d+)(?:\.(\d+))?/;
const lineDone = (b: Buffer) => b.includes(10);
/**
 * We announce protocol 30: rsync 3.2's protocol 32 insists on a digest list after the version ("your client
 * omitted the digest name list").
 */
const CLIENT_HELLO = '@RSYNCD: 30.0\n';

/** Module names the daemon lists (an empty request line asks for the list; it ends with "@RSYNCD: EXIT"). */
export function rsyncModules(net: Net, port: number) {
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
export function rsyncOpens(net: Net, port: number, module: string) {
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
