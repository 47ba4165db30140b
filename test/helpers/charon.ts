/**
 * strongSwan's charon (Debian strongswan-charon, started by strongswan-
 * starter from an ipsec.conf of ours) as an IKEv1 responder, for the IKE
 * test and the detection fleet. charon binds UDP 500 and 4500 on every
 * address and has no option to bind one (socket-default plugin), and its
 * pid file and stroke socket are fixed under /var/run: so it runs in a
 * network namespace of its own (only `lo` and a dummy interface holding the
 * responder's addresses, no default route: `routes()` prints the table) and
 * a mount namespace with a private /run. A UDP relay carries datagrams from
 * an outside 127.x address:port to the responder's address inside (the
 * outer half in the caller's process, the inner half udp-netns-relay.mjs
 * under `ip netns exec`), so the scanner runs unchanged in the root
 * namespace and nothing leaves loopback.
 */
import { type ChildProcess, execFileSync, type StdioOptions } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const STARTER = existsSync('/usr/lib/ipsec/starter') ? '/usr/lib/ipsec/starter' : null;
const CHARON = '/usr/lib/ipsec/charon';

const ip = (...args: string[]) => execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** Why charon cannot run here, or null: root, ip(8), the starter and charon, and a namespace of our own. */
export function charonUnsupported(): string | null {
  if (process.getuid?.() !== 0) return 'needs root (a network namespace for charon)';
  if (!STARTER || !existsSync(CHARON))
    return 'strongSwan is not installed (apt-get install strongswan-starter strongswan-charon)';
  try {
    ip('netns', 'add', `vgikeprobe${process.pid}`);
    ip('netns', 'del', `vgikeprobe${process.pid}`);
  } catch (e) {
    return `cannot create a network namespace: ${(e as { stderr?: string }).stderr?.trim() || String(e)}`;
  }
  return null;
}

/** One responder address inside the namespace; `aggressive` allows IKEv1 Aggressive Mode with the PSK there. */
export interface IkeConn {
  address: string;
  aggressive: boolean;
}

/**
 * The namespace: lo up, a dummy interface holding the responders' addresses (charon answers on interface
 * addresses), no route but the local ones. Returns the routing table for the log; refuses a default route.
 */
export function makeNamespace(ns: string, conns: readonly IkeConn[]): string {
  ip('netns', 'add', ns);
  ip('-n', ns, 'link', 'set', 'lo', 'up');
  let dev = 'ike0';
  try {
    ip('-n', ns, 'link', 'add', dev, 'type', 'dummy');
    ip('-n', ns, 'link', 'set', dev, 'up');
  } catch {
    dev = 'lo'; // no dummy driver in this kernel: the addresses go on lo
  }
  for (const c of conns) ip('-n', ns, 'addr', 'add', `${c.address}/32`, 'dev', dev);
  const routes = `${ip('-n', ns, '-br', 'addr')}${ip('-n', ns, 'route', 'show')}${ip('-n', ns, 'route', 'show', 'table', 'local')}`;
  if (/^default/m.test(routes)) throw new Error(`a default route in ${ns}:\n${routes}`);
  return routes;
}

export function deleteNamespace(ns: string): void {
  try {
    ip('netns', 'del', ns);
  } catch {
    // already gone
  }
}

/**
 * strongswan.conf, ipsec.conf and ipsec.secrets in `dir`, and the command that runs the starter (and so
 * charon) in the foreground inside `ns` with /run private. Weak conns: keyexchange=ikev1, aggressive=yes,
 * authby=secret, and charon's switch that lets a responder answer Aggressive Mode with a PSK at all
 * (strongswan.conf(5): i_dont_care_about_security_and_use_aggressive_mode_psk); the others aggressive=no.
 */
export function charonCommand(ns: string, dir: string, conns: readonly IkeConn[]): [string, string[]] {
  const secrets = join(dir, 'ipsec.secrets');
  const conf = join(dir, 'ipsec.conf');
  const strongswan = join(dir, 'strongswan.conf');
  writeFileSync(secrets, ': PSK "vigil-test-psk-not-a-secret"\n', { mode: 0o600 });
  writeFileSync(
    strongswan,
    `charon {
  load = random nonce openssl pem pkcs1 x509 pubkey kernel-netlink socket-default stroke sha1 sha2 md5 aes hmac gmp
  i_dont_care_about_security_and_use_aggressive_mode_psk = ${conns.some((c) => c.aggressive) ? 'yes' : 'no'}
  install_routes = no
  # Every peer reaches charon from the relay's one address, and each probe leaves a half-open IKE_SA
  # behind (the exchange is abandoned): the default of 5 per address would start blocking the scanner.
  block_threshold = 1000
  install_virtual_ip = no
  filelog {
    log {
      path = ${join(dir, 'charon.log')}
      default = 1
      ike = 2
    }
  }
  plugins {
    stroke {
      secrets_file = ${secrets}
    }
  }
}
`,
  );
  writeFileSync(
    conf,
    `config setup
${conns
  .map(
    (c, i) => `
conn c${i}
  keyexchange=ikev1
  aggressive=${c.aggressive ? 'yes' : 'no'}
  authby=secret
  left=${c.address}
  leftid=@vpn${i}.vigil.test
  right=%any
  rightid=%any
  ike=aes256-sha256-modp2048,aes128-sha1-modp2048,aes128-sha1-modp1024,3des-sha1-modp1024!
  esp=aes128-sha1!
  auto=add
`,
  )
  .join('')}`,
  );
  const script = `mount -t tmpfs tmpfs /run && exec env STRONGSWAN_CONF=${strongswan} ${STARTER} --nofork --conf ${conf}`;
  return ['ip', ['netns', 'exec', ns, 'sh', '-c', script]];
}

/** The inner half of the relay, for `spawn` (stdin and stdout must be pipes). */
export function relayCommand(ns: string): [string, string[]] {
  return ['ip', ['netns', 'exec', ns, process.execPath, new URL('./udp-netns-relay.mjs', import.meta.url).pathname]];
}

export interface RelayPair {
  /** Outside (root namespace) address and port the scanner asks. */
  outer: string;
  outerPort: number;
  /** The responder's address and port inside the namespace. */
  inner: string;
  innerPort: number;
}

/**
 * The outer half: one socket per pair, each datagram to the inner half as a JSON line, each reply back to
 * the client that sent the request. Resolves once the inner half is ready and every socket is bound.
 */
export async function attachRelay(child: ChildProcess, pairs: readonly RelayPair[]): Promise<() => void> {
  const sockets: Socket[] = [];
  let closed = false;
  const clients = new Map<string, { s: Socket; address: string; port: number }>();
  let ready: () => void = () => {};
  const isReady = new Promise<void>((res) => (ready = res));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line === 'ready') return ready();
    const m = JSON.parse(line) as { k: string; d: string };
    const c = clients.get(m.k);
    if (c && !closed) c.s.send(Buffer.from(m.d, 'base64'), c.port, c.address);
  });
  for (const p of pairs) {
    // reuseAddr: nmap's ike-version binds 0.0.0.0:500 as its source (IKE peers answer port 500); with
    // SO_REUSEADDR on both sides the two binds coexist, as they would on a host without the relay.
    const s = createSocket({ type: 'udp4', reuseAddr: true });
    s.on('message', (d, rinfo) => {
      const k = `${p.outer}|${rinfo.address}|${rinfo.port}`;
      clients.set(k, { s, address: rinfo.address, port: rinfo.port });
      child.stdin!.write(`${JSON.stringify({ k, a: p.inner, p: p.innerPort, d: d.toString('base64') })}\n`);
    });
    s.on('error', () => {});
    await new Promise<void>((res, rej) => {
      s.once('error', rej);
      s.bind(p.outerPort, p.outer, () => (s.off('error', rej), res()));
    });
    sockets.push(s);
  }
  await Promise.race([
    isReady,
    new Promise((_, rej) => child.once('exit', (code) => rej(new Error(`the relay exited (${code})`)))),
  ]);
  return () => {
    closed = true;
    for (const s of sockets) s.close();
    child.stdin?.end();
  };
}

/** Starts a child in its own process group; `stdio` as spawn takes it. */
export type Spawner = (label: string, cmd: string, args: string[], stdio: StdioOptions) => ChildProcess;

/**
 * The whole responder: the namespace, charon (through its starter) and the relay from each conn's address,
 * port `port`, outside to the same address inside. Resolves once the relay is up (not yet charon: the
 * caller polls with an Aggressive Mode proposal); `close` ends the relay and removes the namespace, after
 * or before the processes stop (a namespace lives on while a process is in it).
 */
export async function startIkeResponder(o: {
  ns: string;
  dir: string;
  conns: readonly IkeConn[];
  port: number;
  spawn: Spawner;
}): Promise<{ routes: string; charon: ChildProcess; close: () => void }> {
  const routes = makeNamespace(o.ns, o.conns);
  try {
    const [cmd, args] = charonCommand(o.ns, o.dir, o.conns);
    const charon = o.spawn('charon', cmd, args, ['ignore', 'pipe', 'pipe']);
    const [rcmd, rargs] = relayCommand(o.ns);
    const relay = o.spawn('relay', rcmd, rargs, ['pipe', 'pipe', 'pipe']);
    const pairs = o.conns.map((c) => ({ outer: c.address, outerPort: o.port, inner: c.address, innerPort: o.port }));
    const closeRelay = await attachRelay(relay, pairs);
    return { routes, charon, close: () => (closeRelay(), deleteNamespace(o.ns)) };
  } catch (e) {
    deleteNamespace(o.ns);
    throw e;
  }
}
