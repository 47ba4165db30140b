/**
 * An emulated WAN in two network namespaces of our own (issue 26): the
 * scanner's (198.18.0.1) and the targets' (198.18.1.0/24, addresses on its
 * loopback), joined by two TUN devices and tunfwd.c in between (delay,
 * jitter, loss, filtered ports, ping-deaf hosts). Neither namespace has a
 * default route or any other interface: nothing can leave the machine.
 * `routes()` prints both routing tables, and `createWan` refuses to go on
 * if a default route shows up. 198.18.0.0/15 is the benchmarking range
 * (RFC 2544 §C.2.2); it exists only inside these namespaces.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SCANNER = '198.18.0.1';

export interface WanOptions {
  /** Unique per run: namespace and device names derive from it (≤ 8 chars). */
  id: string;
  /** One-way delay (RTT = 2 × delayMs), jitter ±ms, loss per packet and direction (0-1). */
  delayMs: number;
  jitterMs: number;
  loss: number;
  /** tunfwd rules: `f:IP:PORT`, `d:IP`, `o:IP:P1/P2`. */
  rules: string[];
  /** Addresses the targets' namespace owns (198.18.1.x). */
  targets: string[];
}

export interface Wan {
  scanNs: string;
  targetNs: string;
  /** Both namespaces' links and routes, as `ip` prints them. */
  routes(): string;
  /** Runs a command inside a namespace. */
  spawnIn(ns: string, cmd: string, args: string[]): ChildProcess;
  close(): void;
}

const ip = (...args: string[]) => execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** Why the WAN cannot be built here, or null: root, ip(8), /dev/net/tun and a C compiler are needed. */
export function wanUnsupported(): string | null {
  if (process.getuid?.() !== 0) return 'needs root (network namespaces and TUN devices)';
  if (!existsSync('/dev/net/tun')) return 'no /dev/net/tun';
  try {
    ip('-V');
  } catch {
    return 'no ip(8) (iproute2)';
  }
  try {
    execFileSync('cc', ['--version'], { stdio: 'ignore' });
  } catch {
    return 'no C compiler (cc) to build the forwarder bench/wan/tunfwd.c';
  }
  try {
    ip('netns', 'add', `vgprobe${process.pid}`);
    ip('netns', 'del', `vgprobe${process.pid}`);
  } catch (e) {
    return `cannot create a network namespace: ${(e as { stderr?: string }).stderr?.trim() || String(e)}`;
  }
  return null;
}

/** Builds tunfwd once per source version, into the temporary directory. */
function forwarder(): string {
  const src = new URL('./tunfwd.c', import.meta.url).pathname;
  const dir = join(tmpdir(), 'vigil-tunfwd');
  mkdirSync(dir, { recursive: true });
  const bin = join(dir, `tunfwd-${Math.floor(statSync(src).mtimeMs)}`);
  if (!existsSync(bin)) execFileSync('cc', ['-O2', '-o', bin, src]);
  return bin;
}

export async function createWan(o: WanOptions): Promise<Wan> {
  const scanNs = `vgs-${o.id}`;
  const targetNs = `vgt-${o.id}`;
  const devS = `tvs${o.id}`.slice(0, 15);
  const devT = `tvt${o.id}`.slice(0, 15);
  const children: ChildProcess[] = [];
  const close = () => {
    for (const c of children) if (c.exitCode === null && c.pid) c.kill('SIGKILL');
    for (const ns of [scanNs, targetNs])
      try {
        ip('netns', 'del', ns);
      } catch {
        // not there (never made, or already gone)
      }
  };
  try {
    ip('netns', 'add', scanNs);
    ip('netns', 'add', targetNs);
    const fwd = spawn(
      forwarder(),
      [
        `/var/run/netns/${scanNs}`,
        devS,
        `/var/run/netns/${targetNs}`,
        devT,
        String(o.delayMs),
        String(o.jitterMs),
        String(o.loss),
        o.rules.join(','),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(fwd);
    await new Promise<void>((resolve, reject) => {
      fwd.stdout!.once('data', () => resolve());
      fwd.once('exit', (code) => reject(new Error(`tunfwd exited (${code})`)));
    });
    const n = (ns: string, ...args: string[]) => ip('-n', ns, ...args);
    n(scanNs, 'link', 'set', 'lo', 'up');
    n(scanNs, 'addr', 'add', `${SCANNER}/32`, 'dev', devS);
    n(scanNs, 'link', 'set', devS, 'up');
    n(scanNs, 'route', 'add', '198.18.1.0/24', 'dev', devS, 'src', SCANNER);
    n(targetNs, 'link', 'set', 'lo', 'up');
    n(targetNs, 'link', 'set', devT, 'up');
    for (const a of o.targets) n(targetNs, 'addr', 'add', `${a}/32`, 'dev', 'lo');
    n(targetNs, 'route', 'add', `${SCANNER}/32`, 'dev', devT);
    for (const ns of [scanNs, targetNs])
      execFileSync('ip', ['netns', 'exec', ns, 'sysctl', '-qw', 'net.ipv4.conf.all.rp_filter=0'], { stdio: 'ignore' });
    const routes = () =>
      [scanNs, targetNs]
        .map(
          (ns) =>
            `# ${ns}\n${n(ns, '-br', 'link')}${n(ns, 'route', 'show')}${n(ns, '-6', 'route', 'show') || '(no IPv6 routes)\n'}`,
        )
        .join('');
    if (/^default/m.test(routes())) throw new Error(`a default route in the WAN namespaces:\n${routes()}`);
    return {
      scanNs,
      targetNs,
      routes,
      spawnIn(ns, cmd, args) {
        const child = spawn('ip', ['netns', 'exec', ns, cmd, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
        children.push(child);
        return child;
      },
      close,
    };
  } catch (e) {
    close();
    throw e;
  }
}

/** Runs a command in a namespace to its end; resolves to its stdout (rejects with its stderr). */
export function runIn(wan: Wan, ns: string, cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = wan.spawnIn(ns, cmd, args);
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (err += d));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} exited ${code}: ${err}`))));
  });
}
