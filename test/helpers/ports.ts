import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * Loopback ports for tests and their daemons. Apart from server.ts so that a fixture taking a port does not
 * import the store helpers (scripts/test-files.mjs runs a file on PostgreSQL too when its imports reach them).
 */

/**
 * The kernel's ephemeral range (ip_local_port_range): the source ports of outgoing connections. A port the
 * kernel hands out for listen(0) comes from it too, so between freePort and a daemon's bind another test's
 * outgoing connection (a port scan makes thousands) may hold it: `serve` once exited with EADDRINUSE on
 * 127.0.0.1:39455 with four test files at once (cert-reload.test.ts). freePort picks below the range instead.
 */
const EPHEMERAL_LOW = (() => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
})();
const PICK_LOW = Math.min(10_000, EPHEMERAL_LOW >> 1);

/**
 * Ports handed out, one file each (scripts/test.mjs gives the run its own folder): four test files run at
 * once, and two of them picking the same free port before either binds it would meet at the bind (serve
 * exited EADDRINUSE on 127.0.0.1:18599 in operator.test.ts so). A port stays reserved for RESERVED_MS,
 * longer than any daemon takes from freePort to its bind, so within it no process gets one port twice.
 */
const RESERVED = process.env.VIGIL_TEST_PORTS || join(tmpdir(), 'vigil-test-ports');
const RESERVED_MS = 120_000;

function reserve(port: number): boolean {
  const file = join(RESERVED, String(port));
  try {
    mkdirSync(RESERVED, { recursive: true });
    writeFileSync(file, String(process.pid), { flag: 'wx' });
    return true;
  } catch {
    try {
      if (Date.now() - statSync(file).mtimeMs < RESERVED_MS) return false;
      writeFileSync(file, String(process.pid)); // a reservation of long ago: reused
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * A loopback port nobody holds right now, over TCP and UDP (DNS tests use both, and a port free for TCP may
 * still be held for UDP by another process: a dns-rrl test once counted a stranger's answers on its port),
 * chosen at random below the ephemeral range, where no outgoing connection takes it, and reserved against
 * the other test files of the run.
 */
export async function freePort(address = '127.0.0.1'): Promise<number> {
  for (let tries = 0; ; tries++) {
    const port = PICK_LOW + Math.floor(Math.random() * (EPHEMERAL_LOW - PICK_LOW));
    if (reserve(port) && (await tcpFree(port, address)) && (await udpFree(port, address))) return port;
    if (tries >= 50) throw new Error(`no free port on ${address} after 50 tries`);
  }
}

function tcpFree(port: number, address: string): Promise<boolean> {
  return new Promise((res) => {
    const s = createServer();
    s.once('error', () => res(false));
    s.listen(port, address, () => s.close(() => res(true)));
  });
}

function udpFree(port: number, address: string): Promise<boolean> {
  return new Promise((res) => {
    const u = createSocket(address.includes(':') ? 'udp6' : 'udp4');
    u.once('error', () => {
      try {
        u.close();
      } catch {
        // never bound: nothing to close
      }
      res(false);
    });
    u.bind(port, address, () => u.close(() => res(true)));
  });
}
