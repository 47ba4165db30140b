import { readFileSync } from 'node:fs';
import { createServer as createHttp, type Server as HttpServer } from 'node:http';
import { createServer as createHttps } from 'node:https';
import { createServer as createTcp, type Server, type Socket } from 'node:net';
import { generate } from 'selfsigned';

/** Ports some process listens on for every address (0.0.0.0 / ::): an audit of any loopback address sees them too. */
export function wildcardListeners(): Set<number> {
  const out = new Set<number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (state !== '0A' || !local) continue;
      const [addr, port] = local.split(':');
      if (/^0+$/.test(addr!)) out.add(parseInt(port!, 16));
    }
  }
  return out;
}

type Listening = HttpServer | Server;

/** Listens on the first candidate port that is free at `host`. */
export async function listenOnFirst(server: Listening, host: string, candidates: readonly number[]): Promise<number> {
  for (const port of candidates) {
    const ok = await new Promise<boolean>((res) => {
      const onError = () => res(false);
      server.once('error', onError);
      server.listen(port, host, () => {
        server.off('error', onError);
        res(true);
      });
    });
    if (ok) return port;
  }
  throw new Error(`no free port among ${candidates.join(',')} on ${host}`);
}

/** A server that greets every connection with one banner line and then waits. */
const tracked = new WeakMap<Listening, Set<Socket>>();

export function bannerServer(banner: string): Server {
  const open = new Set<Socket>();
  const server = createTcp((s) => {
    open.add(s);
    s.on('close', () => open.delete(s));
    s.on('error', () => {});
    s.write(`${banner}\r\n`);
    s.setTimeout(10_000, () => s.destroy());
  });
  tracked.set(server, open);
  return server;
}

/** A server that accepts and never says a word: detection and checks must time out, not hang. */
export function tarpit(): Server {
  const held = new Set<import('node:net').Socket>();
  const server = createTcp((s) => {
    s.on('error', () => {});
    held.add(s);
    s.on('close', () => held.delete(s));
  });
  server.on('close', () => held.forEach((s) => s.destroy()));
  const close = server.close.bind(server);
  server.close = (cb?: (err?: Error) => void) => {
    held.forEach((s) => s.destroy());
    return close(cb);
  };
  return server;
}

export function httpServer(): HttpServer {
  return createHttp((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body>hello</body></html>');
  });
}

/** HTTPS with a self-signed certificate that expired a year ago. */
export async function expiredHttpsServer(): Promise<HttpServer> {
  const year = 365 * 86_400_000;
  const pems = await generate([{ name: 'commonName', value: 'expired.test' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - 2 * year),
    notAfterDate: new Date(Date.now() - year),
  });
  return createHttps({ key: pems.private, cert: pems.cert }, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('secure hello');
  }) as unknown as HttpServer;
}

/** Closes servers and every connection still open on them (a scan leaves some behind). */
export function closeAll(servers: Listening[]): Promise<unknown> {
  return Promise.all(
    servers.map(
      (s) =>
        new Promise((res) => {
          if (!s.listening) return res(null);
          s.close(() => res(null));
          (s as HttpServer).closeAllConnections?.();
          tracked.get(s)?.forEach((c) => c.destroy());
        }),
    ),
  );
}
