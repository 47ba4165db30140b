/** VNC (RFB, RFC 6143): the security types a server offers. */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

/** The security types a VNC server offers (RFB 3.7+: a list; 3.3: the one it chose). */
export function vncSecurityTypes(net: Net, port: number): Promise<number[] | null> {
  return talk(net, port, async (c) => {
    const hello = (await c.read(3000, (b) => b.length >= 12)).toString('latin1');
    const m = /^RFB (\d{3})\.(\d{3})\n/.exec(hello);
    if (!m) return null;
    const minor = Number(m[2]);
    const version = minor >= 8 ? 'RFB 003.008\n' : minor === 7 ? 'RFB 003.007\n' : 'RFB 003.003\n';
    const r = await c.ask(version, 3000, (b) => (minor >= 7 ? b.length >= 1 && b.length >= 1 + b[0]! : b.length >= 4));
    if (minor < 7) return r.length >= 4 ? [r.readUInt32BE(0)] : null;
    if (r.length < 1 || r[0] === 0) return null;
    return [...r.subarray(1, 1 + r[0]!)];
  });
}
