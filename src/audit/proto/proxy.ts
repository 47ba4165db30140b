import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Net } from '../engine/types.ts';
import { httpRequest, openHttpSocket } from './http.ts';

/**
 * Open-proxy proof by relay (issue 27): "CONNECT answered 200" proves
 * nothing, since a web server may answer any method with its own page. The
 * scanner opens a listener of its own on the address the target reaches it
 * by, asks the target to fetch a unique path there, and reports only when
 * the listener saw that request AND a second secret, which only the
 * listener's answer carries (never the request: a proxy's error page may
 * echo the URL it was asked for), comes back through the target.
 */
export interface Canary {
  /** host:port of the listener, as a URL authority. */
  readonly authority: string;
  readonly path: string;
  /** In the listener's answer only. */
  readonly secret: string;
  /** Remote addresses that asked the listener for `path`. */
  readonly hits: string[];
}

/** What came back through the target: the evidence for the finding. */
export interface Relay {
  sent: string;
  status: number;
  from: string;
}

const authority = (host: string, port: number) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

/**
 * The scanner's own address as the target sees it: the local end of a
 * connection to the target (loopback when the target is). Null if the
 * target cannot be reached on `port`.
 */
async function localAddressToward(net: Net, port: number): Promise<string | null> {
  try {
    const s = await net.connect(port, { timeoutMs: 3000 });
    const a = s.localAddress ?? null;
    s.destroy();
    return a?.replace(/^::ffff:/, '') ?? null;
  } catch {
    return null;
  }
}

/**
 * Runs `probe` with a canary listener up for its duration only, bound to
 * the scanner's own address toward the target, answering only the canary
 * path (404 to anything else).
 */
export async function withCanary<T>(net: Net, port: number, probe: (c: Canary) => Promise<T>): Promise<T | null> {
  const local = await localAddressToward(net, port);
  if (!local) return null;
  const path = `/vigil-proxy-${randomBytes(8).toString('hex')}`;
  const secret = `vigil-relayed-${randomBytes(12).toString('hex')}`;
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    if (req.url !== path && !req.url?.endsWith(path)) return (res.writeHead(404), res.end());
    hits.push(req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '?');
    res.writeHead(200, { 'Content-Type': 'text/plain', Connection: 'close' });
    res.end(`${secret}\n`);
  });
  try {
    await new Promise<void>((ok, fail) => (server.once('error', fail), server.listen(0, local, ok)));
  } catch {
    return null;
  }
  try {
    const { port: lp } = server.address() as AddressInfo;
    return await probe({ authority: authority(local, lp), path, secret, hits });
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

/** GET in absolute form (RFC 9112 §3.2.2), the way a client asks a forward proxy. */
export async function relayGet(net: Net, port: number, tls: boolean, c: Canary): Promise<Relay | null> {
  const sent = `GET http://${c.authority}${c.path}`;
  const a = await httpRequest(net, port, tls, { target: `http://${c.authority}${c.path}`, host: c.authority });
  return a && a.body.includes(c.secret) && c.hits.length ? { sent, status: a.status, from: c.hits[0]! } : null;
}

/** Reads until `enough(data)` or the socket ends or `timeoutMs`; what was read. */
function readUntil(s: Socket, enough: (d: Buffer) => boolean, timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      s.off('data', onData);
      resolve(Buffer.concat(chunks));
    };
    const onData = (d: Buffer) => {
      chunks.push(d);
      const all = Buffer.concat(chunks);
      if (enough(all) || all.length > 65536) done();
    };
    const timer = setTimeout(done, timeoutMs);
    s.on('data', onData);
    s.once('end', done);
    s.once('close', done);
    s.once('error', done);
  });
}

const canaryGet = (c: Canary) => `GET ${c.path} HTTP/1.1\r\nHost: ${c.authority}\r\nConnection: close\r\n\r\n`;

/** Over an opened tunnel, the canary GET; true if the secret came back. */
async function throughTunnel(s: Socket, c: Canary): Promise<boolean> {
  s.write(canaryGet(c));
  const back = await readUntil(s, (d) => d.includes(c.secret), 4000);
  return back.includes(c.secret) && c.hits.length > 0;
}

/** CONNECT (RFC 9110 §9.3.6), then the canary GET through the tunnel. */
export async function relayConnect(net: Net, port: number, tls: boolean, c: Canary): Promise<Relay | null> {
  const s = await openHttpSocket(net, port, tls, 4000);
  if (!s) return null;
  try {
    s.write(`CONNECT ${c.authority} HTTP/1.1\r\nHost: ${c.authority}\r\nUser-Agent: Vigil-Audit\r\n\r\n`);
    const head = await readUntil(s, (d) => d.includes('\r\n\r\n'), 4000);
    const m = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(head.toString('latin1'));
    if (!m || !m[1]!.startsWith('2')) return null;
    return (await throughTunnel(s, c))
      ? {
          sent: `CONNECT ${c.authority}, then GET ${c.path} through the tunnel`,
          status: Number(m[1]),
          from: c.hits[0]!,
        }
      : null;
  } finally {
    s.destroy();
  }
}

/**
 * SOCKS5 with no authentication (RFC 1928 §3, §4), then the canary GET.
 * SOCKS4 (no authentication by design) is tried too when SOCKS5 is refused.
 */
export async function relaySocks(net: Net, port: number, c: Canary): Promise<Relay | null> {
  const m = /^\[?([^\]]+)\]?:(\d+)$/.exec(c.authority)!;
  const [host, lport] = [m[1]!, Number(m[2])];
  const v4 = /^\d+\.\d+\.\d+\.\d+$/.test(host) ? Buffer.from(host.split('.').map(Number)) : null;
  const portBytes = Buffer.from([lport >> 8, lport & 255]);
  for (const version of [5, 4] as const) {
    if (version === 4 && !v4) break;
    let s: Socket;
    try {
      s = await net.connect(port, { timeoutMs: 4000 });
    } catch {
      return null;
    }
    try {
      if (version === 5) {
        s.write(Buffer.from([5, 1, 0]));
        const hello = await readUntil(s, (d) => d.length >= 2, 3000);
        if (hello.length < 2 || hello[0] !== 5 || hello[1] !== 0) continue;
        // ATYP 1 = IPv4, 4 = IPv6 (RFC 1928 §5).
        const addr = v4 ? Buffer.concat([Buffer.from([1]), v4]) : Buffer.concat([Buffer.from([4]), ipv6Bytes(host)]);
        s.write(Buffer.concat([Buffer.from([5, 1, 0]), addr, portBytes]));
        const reply = await readUntil(s, (d) => d.length >= 10, 4000);
        if (reply.length < 2 || reply[0] !== 5 || reply[1] !== 0) continue;
      } else {
        // SOCKS4 CONNECT: VN 4, CD 1, port, address, empty user id.
        s.write(Buffer.concat([Buffer.from([4, 1]), portBytes, v4!, Buffer.from([0])]));
        const reply = await readUntil(s, (d) => d.length >= 8, 4000);
        if (reply.length < 8 || reply[1] !== 0x5a) continue;
      }
      if (await throughTunnel(s, c))
        return { sent: `SOCKS${version} CONNECT ${c.authority}, then GET ${c.path}`, status: 0, from: c.hits[0]! };
    } finally {
      s.destroy();
    }
  }
  return null;
}

function ipv6Bytes(host: string): Buffer {
  const [head, tail] = host.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return Buffer.from(groups.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 255]));
}
