/** FTP (RFC 959) passive data connections, always to the audited address (a PASV address elsewhere is ignored: no FTP bounce). */
import type { Socket } from 'node:net';
import type { Net } from '../engine/types.ts';
import { Conv } from './conv.ts';
import { code, replyDone } from './talk.ts';

/** PASV, then a data connection to the port it names on the audited address; null when either fails. */
export async function pasvData(c: Conv, net: Net): Promise<Socket | null> {
  const pasv = (await c.ask('PASV\r\n', 3000, replyDone)).toString('latin1');
  const m = /227 .*?\(?(\d+),(\d+),(\d+),(\d+),(\d+),(\d+)\)?/.exec(pasv);
  if (!m) return null;
  return net.connect(Number(m[5]) * 256 + Number(m[6]), { timeoutMs: 3000 }).catch(() => null);
}

/** NLST of the login directory through a passive data connection to the audited address; [] on any failure. */
export async function nlst(c: Conv, net: Net): Promise<string[]> {
  const data = await pasvData(c, net);
  if (!data) return [];
  const listing = new Conv(data, 3000, 16384);
  // The first reply's code, not the last: a server sends 150, the listing and 226 without waiting for us,
  // and a client read late (a loaded machine) gets "150 …\r\n226 …\r\n" in one buffer, whose last code
  // (226) read as "not started" lost the listing (writes.test.ts under the full suite's load).
  const started = firstCode(await c.ask('NLST\r\n', 3000, replyDone));
  const text = started === 150 || started === 125 ? (await listing.read(3000, () => false)).toString('latin1') : '';
  listing.close();
  if (started === 150 || started === 125) await c.read(3000, (b) => replyDone(b) && code(b) >= 200);
  return text
    .split(/\r?\n/)
    .map((l) => l.trim().replace(/^\.?\//, ''))
    .filter(Boolean);
}

/** The code of the first reply in a buffer that may hold several (RFC 959 4.2: a 1yz reply, then the final one). */
const firstCode = (b: Buffer) => Number(/^(\d{3})[ -]/.exec(b.toString('latin1'))?.[1] ?? 0);
