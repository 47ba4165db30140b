import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { dnsperf, type Run, type RunOptions } from './dnsperf-run.ts';

export { dnsperf, pinned, type Run } from './dnsperf-run.ts';

/**
 * What the two dnsperf benches (dnsperf.ts, dnsperf-dnssec.ts) share: the
 * zone of N A records, the query file, one dnsperf run (dnsperf-run.ts)
 * and the rounds, so both measure the same thing the same way.
 */

/**
 * Every Vigil these benches start runs with response rate limiting off
 * (`--dns-rrl-rate 0`): dnsperf sends ~100,000 queries a second from one
 * address, many of them the same question, which RRL (on by default at 20
 * identical responses a second per /24) would cut to a trickle of answers
 * and TC. The other servers run without it too (NSD's `rrl-ratelimit: 0`;
 * BIND and Knot have none unless configured). Printed with every table.
 */
export const RRL_OFF = ['--dns-rrl-rate', '0'] as const;
export const RRL_NOTE = 'response rate limiting off for every server (Vigil: --dns-rrl-rate 0)';

export async function until(pred: () => Promise<boolean>, what: string, tries = 600): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await pred().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out: ${what}`);
}

/**
 * N A records `hostI` straight into a serve's SQLite store (the API adds ~2k records/s; these benches measure
 * serving).
 */
export function bulkARecords(dataDir: string, zone: string, n: number): void {
  const store = new SqliteDatabase(join(dataDir, 'vigil.sqlite'));
  store.pragma('busy_timeout = 5000');
  store.exec(`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${n - 1})
INSERT INTO records (domain_id, type, data) SELECT (SELECT id FROM domains WHERE name = '${zone}'), 'A',
  json_object('name', 'host' || i, 'data', '10.0.' || (i / 256) || '.' || (i % 256)) FROM n;`);
  store.close();
}

/** 10,000 questions: 80% existing names spread over the zone, 20% NXDOMAIN. */
export function queryFile(dir: string, zone: string, n: number): string {
  const file = join(dir, 'queries.txt');
  const lines: string[] = [];
  for (let i = 0; i < 10_000; i++) lines.push(i % 5 === 4 ? `nx${i}.${zone} A` : `host${(i * 7919) % n}.${zone} A`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** One server under test: a name and what one dnsperf run against it gives. */
export interface Target {
  name: string;
  /** Vigil or a peer: the ratio is the best Vigil over the best peer of each round (and group). */
  vigil: boolean;
  /** Targets compared with each other (a placement: 'pinned', 'unpinned'); '' for one group. */
  group: string;
  /** Vigil with a change tried by environment (a variant): compared with Vigil, not in best Vigil / peer. */
  variant?: boolean;
  /** The kernel's floor (dnsperf-floor.ts): neither Vigil nor a peer; the ratios put the best of each over it. */
  reference?: boolean;
  run(): Run;
  /** One short run before the rounds. */
  warm(): void;
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const span = (xs: number[]) => `${Math.min(...xs)} - ${Math.max(...xs)}`;

/**
 * Runs every target once a round, `rounds` times, the order turning each
 * round (Vigil and its peers alternate), so that load from elsewhere on a
 * shared 2-core machine falls on all of them alike; prints each target's
 * median and range, its CPU per query and dnsperf's CPU, and for each group
 * the ratios of each round: best Vigil / best peer in q/s, the best peer's
 * CPU per query over the best Vigil's, and Vigil against its variant rows.
 */
export function roundsTable(targets: Target[], rounds: number, heading: string): void {
  const runs = new Map<Target, Run[]>(targets.map((t) => [t, []]));
  const groups = [...new Set(targets.map((t) => t.group))];
  const ratios = new Map<string, Map<string, number[]>>(groups.map((g) => [g, new Map()]));
  const note = (g: string, what: string, x: number) =>
    Number.isFinite(x) && ratios.get(g)!.set(what, [...(ratios.get(g)!.get(what) ?? []), x]);
  // Unmeasured: every server's first answers (Vigil's reply caches fill on the first question of each name).
  for (const t of targets) t.warm();
  for (let r = 0; r < rounds; r++) {
    const order = targets.map((_, i) => targets[(i + r) % targets.length]!);
    for (const t of order) {
      const one = t.run();
      runs.get(t)!.push(one);
      console.log(
        `round ${r + 1}: ${t.name} ${one.qps} q/s, server ${one.serverUs} µs/query, dnsperf ${one.loadCpu}% CPU, load ${one.load1}`,
      );
    }
    for (const g of groups) {
      const last = (pick: (t: Target) => boolean) =>
        targets.filter((t) => t.group === g && pick(t)).map((t) => runs.get(t)!.at(-1)!);
      const [now, old, peer] = [
        last((t) => t.vigil && !t.variant),
        last((t) => !!t.variant),
        last((t) => !t.vigil && !t.reference),
      ];
      const floor = last((t) => !!t.reference);
      const qps = (xs: Run[]) => Math.max(...xs.map((x) => x.qps));
      const cpu = (xs: Run[]) => Math.min(...xs.map((x) => x.serverUs));
      if (now.length && peer.length) {
        note(g, 'best Vigil / best peer q/s', qps(now) / qps(peer));
        note(g, 'best peer / best Vigil CPU per query', cpu(peer) / cpu(now));
      }
      // What no server here can beat: the floor over the best peer bounds any "x times the best peer" goal.
      if (floor.length && peer.length) {
        note(g, 'floor / best peer q/s', qps(floor) / qps(peer));
        note(g, 'best peer / floor CPU per query', cpu(peer) / cpu(floor));
      }
      if (floor.length && now.length) note(g, 'best Vigil / floor q/s', qps(now) / qps(floor));
      if (now.length && old.length) {
        note(g, 'Vigil / Vigil variant q/s', qps(now) / qps(old));
        note(g, 'Vigil variant / Vigil CPU per query', cpu(old) / cpu(now));
      }
    }
  }
  const all = [...runs.values()].flat();
  console.log(`\n${heading}`);
  console.log(`${RRL_NOTE}; ${rounds} rounds, each target once a round, the order turning`);
  console.log(`load average (1 min) at the runs' starts: ${span(all.map((x) => x.load1))}\n`);
  console.log(
    '| server | queries/s (median) | range | server CPU µs/query | dnsperf CPU % | avg reply bytes | lost % |\n|---|---|---|---|---|---|---|',
  );
  for (const t of targets) {
    const xs = runs.get(t)!;
    const m = (f: (x: Run) => number, digits = 0) => +median(xs.map(f)).toFixed(digits);
    console.log(
      `| ${t.name} | ${m((x) => x.qps)} | ${span(xs.map((x) => x.qps))} | ${m((x) => x.serverUs, 2)} | ${m((x) => x.loadCpu)} | ${m((x) => x.bytes)} | ${m((x) => x.lostPct, 2)} |`,
    );
  }
  console.log('');
  for (const [g, byWhat] of ratios)
    for (const [what, xs] of byWhat)
      console.log(
        `${g ? `${g}: ` : ''}${what}, per round: ${xs.map((x) => x.toFixed(2)).join(', ')}; median ${median(xs).toFixed(2)}`,
      );
}

/** A server at `port` under dnsperf: `seconds` a round, 2 s to warm; `group`: '' unless given. */
export function dnsperfTarget(
  name: string,
  vigil: boolean,
  port: number,
  queries: string,
  seconds: number,
  extra: string[] = [],
  opts: RunOptions & { group?: string; variant?: boolean; reference?: boolean } = {},
): Target {
  return {
    name,
    vigil,
    group: opts.group ?? '',
    variant: opts.variant,
    reference: opts.reference,
    run: () => dnsperf(port, queries, seconds, extra, opts),
    warm: () => void dnsperf(port, queries, 2, extra, opts),
  };
}
