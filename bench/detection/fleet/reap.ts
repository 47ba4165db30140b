/**
 * Stopping the whole fleet, whatever its daemons did to leave the process
 * groups the fleet started them in. Killing the groups is not enough:
 * Postfix's master calls setsid(), Erlang starts epmd with -daemon (its
 * own session, reparented to init), vsftpd's listener may outlive its
 * group, and a bench interrupted while a kind was starting never recorded
 * that kind's group at all. So every process the fleet starts carries a
 * tag in its environment (inherited by whatever it forks or daemonizes),
 * and a stop takes: the fleet's groups, every process carrying the tag,
 * and every descendant of those, found in /proc before anything is killed.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type ProcessRow, processTable, startOf } from '../../../test/helpers/listeners.ts';

/** The environment variable that marks the fleet's processes; its value is one run's tag. */
export const FLEET_TAG_ENV = 'VIGIL_BENCH_FLEET';

/** This run's tag: given by bench/detection.ts to its fleet process (so it can reap too), else a new one. */
export function fleetTag(): string {
  process.env[FLEET_TAG_ENV] ||= `fleet-${process.pid}-${randomBytes(4).toString('hex')}`;
  return process.env[FLEET_TAG_ENV]!;
}

function tagged(pid: number, marker: Buffer): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`).includes(marker);
  } catch {
    return false;
  }
}

/**
 * The processes to stop (pid and start time): members of `groups`, tagged processes, and their descendants;
 * never this process or its ancestors.
 */
export function fleetProcesses(groups: readonly number[], tag: string): ProcessRow[] {
  const table = processTable();
  const byPid = new Map(table.map((t) => [t.pid, t]));
  const spare = new Set<number>();
  for (let p = process.pid; p > 1 && !spare.has(p); p = byPid.get(p)?.ppid ?? 0) spare.add(p);
  const marker = Buffer.from(`${FLEET_TAG_ENV}=${tag}\0`);
  const take = new Set(
    table.filter((t) => !spare.has(t.pid) && (groups.includes(t.pgrp) || tagged(t.pid, marker))).map((t) => t.pid),
  );
  for (let grew = true; grew; ) {
    grew = false;
    for (const t of table)
      if (!take.has(t.pid) && !spare.has(t.pid) && take.has(t.ppid)) {
        take.add(t.pid);
        grew = true;
      }
  }
  return table.filter((t) => take.has(t.pid));
}

/** Signals a process only if its pid still names the process seen (same start time): never a reused pid. */
function signal(p: ProcessRow, sig: NodeJS.Signals): void {
  if (startOf(p.pid) !== p.start) return;
  try {
    process.kill(p.pid, sig);
  } catch {
    // gone already
  }
}

const signalGroup = (g: number, sig: NodeJS.Signals) => {
  try {
    process.kill(-g, sig);
  } catch {
    // group gone
  }
};

/** SIGTERM to every fleet process, SIGKILL to what is still there after `graceMs` (looked up again). */
export async function reapFleet(groups: readonly number[], tag: string, graceMs = 5000): Promise<void> {
  const first = fleetProcesses(groups, tag);
  for (const g of groups) signalGroup(g, 'SIGTERM');
  for (const p of first) signal(p, 'SIGTERM');
  const left = () => first.some((p) => startOf(p.pid) === p.start);
  for (const end = Date.now() + graceMs; Date.now() < end && left(); ) await new Promise((r) => setTimeout(r, 100));
  // Also what the first look missed (a child forked while the others stopped).
  for (const g of groups) signalGroup(g, 'SIGKILL');
  for (const p of [...first, ...fleetProcesses(groups, tag)]) signal(p, 'SIGKILL');
}
