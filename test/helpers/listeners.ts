/**
 * Who holds a listening socket: a test (or the detection bench) that starts
 * a daemon and then waits until addr:port accepts must know that the
 * process answering is the one it started. Otherwise a daemon that failed
 * to bind because another run's daemon holds the address (a vsftpd left by
 * a killed run on 127.0.0.57:21; a second bench on the same 127.14.K.N)
 * looks started, and the test talks to the stranger.
 *
 * Read with `ss -lnp` (iproute2): the pids holding the socket, matched to
 * the started process by its descendants (/proc/PID/stat's parent pid) or
 * its process group (daemons are spawned detached, leaders of their own).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** A daemon on 0.0.0.0 or :: holds the port on every address too. */
const WILDCARD = new Set(['0.0.0.0', '*', '[::]', '::']);

/**
 * The pids of the processes holding a listening TCP (or bound UDP) socket on
 * addr:port or on the wildcard address at that port: [] when there is none,
 * null when `ss` cannot say (not installed; a socket whose holders are
 * hidden from a non-root user).
 */
export function listenerPids(proto: 'tcp' | 'udp', addr: string, port: number): number[] | null {
  const r = spawnSync('ss', ['-Hn', proto === 'tcp' ? '-ltp' : '-lup', `sport = :${port}`], { encoding: 'utf8' });
  if (r.status !== 0 || r.error) return null;
  const pids = new Set<number>();
  let hidden = false;
  for (const line of r.stdout.split('\n')) {
    // State Recv-Q Send-Q Local:Port Peer:Port Process
    const local = line.trim().split(/\s+/)[3];
    if (!local) continue;
    const host = local.slice(0, local.lastIndexOf(':')).replace(/%.*$/, '');
    if (host !== addr && !WILDCARD.has(host)) continue;
    const found = [...line.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1]));
    if (!found.length) hidden = true;
    for (const p of found) pids.add(p);
  }
  return hidden && !pids.size ? null : [...pids];
}

/** A live process's parent, group and start time (which tells a reused pid apart), from /proc/PID/stat. */
function stat(pid: number): { ppid: number; pgrp: number; start: string } | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so read after the last ')'.
    // proc(5): starttime is field 22, the 20th after comm.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), pgrp: Number(f[2]), start: f[19] ?? '' };
  } catch {
    return null;
  }
}

/** True when `pid` is `root` or descends from it, or is in the process group `root` leads. */
export function belongsTo(pid: number, root: number): boolean {
  for (let p = pid, hops = 0; p > 1 && hops < 64; hops++) {
    if (p === root) return true;
    const s = stat(p);
    if (!s) return false;
    if (s.pgrp === root) return true;
    p = s.ppid;
  }
  return false;
}

/** "pid 123 (vsftpd)" for a message. */
export function describePid(pid: number): string {
  try {
    return `pid ${pid} (${readFileSync(`/proc/${pid}/comm`, 'utf8').trim()})`;
  } catch {
    return `pid ${pid}`;
  }
}

/**
 * Who else holds addr:port: a description of the holders when the socket is
 * held and none of them belongs to one of `roots` (pids of processes the
 * caller started), else null (ours, free, or `ss` cannot tell).
 */
export function heldByOther(proto: 'tcp' | 'udp', addr: string, port: number, roots: readonly number[]): string | null {
  const pids = listenerPids(proto, addr, port);
  if (!pids?.length || pids.some((p) => roots.some((r) => belongsTo(p, r)))) return null;
  return `${addr}:${port}/${proto} is held by ${pids.map(describePid).join(', ')}`;
}

export interface ProcessRow {
  pid: number;
  ppid: number;
  pgrp: number;
  start: string;
}

/** Start time of a live pid, null once it is gone: a pid seen again with another start time is another process. */
export const startOf = (pid: number): string | null => stat(pid)?.start ?? null;

/** Every live pid with its parent, group and start time (a snapshot of /proc). */
export function processTable(): ProcessRow[] {
  const out: ProcessRow[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const s = stat(Number(name));
    if (s) out.push({ pid: Number(name), ...s });
  }
  return out;
}
