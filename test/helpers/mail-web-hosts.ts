/**
 * The hosts a zone names, for zone-health tests (issue 30): real SMTP
 * (smtp-server, with or without STARTTLS, relaying or not) on port 25 and
 * HTTPS on port 443 of 127.0.30.x addresses, and listeners that count who
 * connects (what a check must never reach).
 */
import { createSocket } from 'node:dgram';
import { createServer as createHttps } from 'node:https';
import { createServer, type Server } from 'node:net';
import { after } from 'node:test';
import { generate } from 'selfsigned';
import { SMTPServer } from 'smtp-server';

const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of closers.reverse()) await c().catch(() => {});
});

export interface Pems {
  cert: string;
  key: string;
}

/** A self-signed certificate for `names`, valid from a year ago for two years (whatever the test clock says). */
export async function certFor(names: string[]): Promise<Pems> {
  const now = Date.now();
  const pems = await generate([{ name: 'commonName', value: names[0]! }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 365 * 86_400_000),
    notAfterDate: new Date(now + 365 * 86_400_000),
    extensions: [{ name: 'subjectAltName', altNames: names.map((value) => ({ type: 2 as const, value })) }],
  });
  return { cert: pems.cert, key: pems.private };
}

/** SMTP on addr:25: STARTTLS with `tls` when given; `relay`: accepts any recipient (an open relay). */
export async function smtpHost(addr: string, tls: Pems | null, relay: boolean, localDomain: string): Promise<void> {
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(tls ?? {}),
    onRcptTo(address, _session, cb) {
      if (relay || address.address.endsWith(`@${localDomain}`)) return cb();
      cb(Object.assign(new Error('relay access denied'), { responseCode: 554 }));
    },
    onData(stream, _s, cb) {
      stream.resume();
      stream.on('end', () => cb());
    },
  });
  await new Promise<void>((res, rej) => {
    server.server.once('error', rej);
    server.listen(25, addr, () => res());
  });
  closers.push(() => new Promise((res) => server.close(() => res())));
}

/** HTTPS on addr:443 with `tls`. */
export async function httpsHost(addr: string, tls: Pems): Promise<void> {
  const server = createHttps(tls, (_req, res) => res.end('ok\n'));
  await new Promise<void>((res, rej) => {
    server.once('error', rej);
    server.listen(443, addr, () => res());
  });
  closers.push(() => new Promise((res) => (server.closeAllConnections(), server.close(() => res()))));
}

/** Listens on addr (TCP 25 and 443, UDP 53) and counts what arrives from anyone but `except` sources. */
export async function tripwire(addr: string, except: string[]): Promise<{ hits: () => string[] }> {
  const hits: string[] = [];
  const tcp: Server[] = [];
  for (const port of [25, 443]) {
    const s = createServer((c) => {
      if (!except.includes(c.remoteAddress ?? '')) hits.push(`tcp/${port} from ${c.remoteAddress}`);
      c.destroy();
    });
    await new Promise<void>((res) => s.listen(port, addr, () => res()));
    tcp.push(s);
  }
  const udp = createSocket('udp4');
  udp.on('message', (_m, from) => {
    if (!except.includes(from.address)) hits.push(`udp/53 from ${from.address}`);
  });
  await new Promise<void>((res) => udp.bind(53, addr, () => res()));
  closers.push(async () => {
    udp.close();
    await Promise.all(tcp.map((s) => new Promise((res) => s.close(() => res(undefined)))));
  });
  return { hits: () => [...hits] };
}
