/**
 * Icecast (and SHOUTcast 2 in Icecast mode): a source client's login, the
 * HTTP PUT of a mount point with HTTP Basic credentials that Icecast 2.4
 * took over from its SOURCE method (Icecast 2.4 docs, "Source clients").
 * The server answers 200 (or 100 Continue to Expect) when it accepts the
 * source and waits for audio; the connection is then closed before a byte
 * of it, and the mount goes away with it. A wrong password gets 401.
 */
import type { Net } from '../engine/types.ts';
import { Conv } from './conv.ts';
import { openHttpSocket } from './http.ts';
import { basicAuthorization } from './http-auth.ts';

/** The status line of the answer to a source login on `mount` (over TLS when `tls`), or null. */
export async function sourceLogin(
  net: Net,
  port: number,
  tls: boolean,
  mount: string,
  user: string,
  password: string,
): Promise<string | null> {
  const head = [
    `PUT ${mount} HTTP/1.1`,
    `Host: ${net.address.includes(':') ? `[${net.address}]` : net.address}:${port}`,
    `Authorization: ${basicAuthorization(user, password)}`,
    'User-Agent: Vigil-Audit',
    'Content-Type: audio/mpeg',
    'Ice-Public: 0',
    'Ice-Name: Vigil audit probe',
    'Expect: 100-continue',
    '',
    '',
  ].join('\r\n');
  const socket = await openHttpSocket(net, port, tls, 3000);
  if (!socket) return null;
  const c = new Conv(socket, 3000);
  try {
    const r = (await c.ask(head, 3000, (b) => b.includes('\r\n\r\n'))).toString('latin1');
    return /^HTTP\/\d\.\d \d{3}[^\r\n]*/.exec(r)?.[0] ?? null;
  } finally {
    c.close();
  }
}
