/**
 * Tests' side of legacy-daemons.ts: a namespace plan started in the
 * foreground (its own process group, stopped when the test file ends), and
 * socat relays from 127.x ports of the host to the Unix sockets it offers.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { onCleanup, stop, tempDir } from './daemons-kit.ts';
import { forwardArgs, nsCommand, type NsPlan } from './legacy-daemons.ts';
import { eventually } from './wait.ts';

export interface Relay {
  proto: 'tcp' | 'udp';
  addr: string;
  port: number;
  /** Socket name in the plan's relays. */
  socket: string;
}

function start(cmd: string, args: string[]) {
  const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let log = '';
  const keep = (d: Buffer) => void (log = (log + d).slice(-2000));
  p.stdout?.on('data', keep);
  p.stderr?.on('data', keep);
  onCleanup(() => stop(p));
  return { p, log: () => log };
}

/** Starts the plan, waits until it is up, then the relays; the directory of its sockets. */
export async function nsDaemon(
  tag: string,
  plan: NsPlan | ((dir: string) => NsPlan),
  relays: Relay[] | ((dir: string) => Relay[]),
): Promise<string> {
  const dir = tempDir(tag);
  const { cmd, args } = nsCommand(dir, typeof plan === 'function' ? plan(dir) : plan);
  const ns = start(cmd, args);
  await eventually(async () => ns.p.exitCode !== null || existsSync(join(dir, 'ready')), `${tag} namespace up`);
  if (ns.p.exitCode !== null) throw new Error(`${tag}: namespace exited (${ns.p.exitCode}): ${ns.log()}`);
  const list = typeof relays === 'function' ? relays(dir) : relays;
  for (const r of list) start('socat', forwardArgs(r.proto, r.addr, r.port, join(dir, r.socket)));
  // Bound once ss lists it (never a bind of our own to ask: it would take the port for that moment).
  for (const r of list) await eventually(async () => listed(r), `relay ${r.addr}:${r.port}/${r.proto}`);
  return dir;
}

const listed = (r: Relay) =>
  execFileSync('ss', ['-Hln', r.proto === 'udp' ? '-u' : '-t', 'src', `${r.addr}:${r.port}`], {
    encoding: 'utf8',
  }).trim() !== '';
