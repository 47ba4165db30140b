import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';

/**
 * What the two dnsperf benches (dnsperf.ts, dnsperf-dnssec.ts) share: the
 * zone of N A records, the query file, and one dnsperf run, so both
 * measure the same thing the same way.
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

/** One `dnsperf -c 8 -T 2 -q 1000` run; `extra`: e.g. ['-D'] for the DO bit. */
export function dnsperf(port: number, queries: string, seconds: number, extra: string[] = []) {
  const out = execFileSync(
    'dnsperf',
    [
      '-s',
      '127.0.0.1',
      '-p',
      String(port),
      '-d',
      queries,
      '-c',
      '8',
      '-T',
      '2',
      '-q',
      '1000',
      '-l',
      String(seconds),
      ...extra,
    ],
    { encoding: 'utf8' },
  );
  const num = (re: RegExp) => Number(re.exec(out)?.[1] ?? NaN);
  return {
    qps: Math.round(num(/Queries per second:\s+([\d.]+)/)),
    latencyMs: +(num(/Average Latency \(s\):\s+([\d.]+)/) * 1000).toFixed(3),
    lostPct: num(/Queries lost:\s+\d+ \(([\d.]+)%\)/),
    bytes: num(/Average packet size:\s+request \d+, response (\d+)/),
  };
}

/**
 * Knot serving one zone file as a primary, two UDP workers like the other servers; `signing: false` serves a
 * signed file as is.
 */
export function knotConfig(port: number, dir: string, zone: string, zoneFile: string, signing = true): string {
  return `
server:
  listen: 127.0.0.1@${port}
  rundir: "${dir}"
  background-workers: 1
  udp-workers: 2
control:
  listen: "${dir}/knot.sock"
database:
  storage: "${dir}"
zone:
  - domain: ${zone}
    file: "${zoneFile}"
    zonefile-load: whole
    journal-content: none
${signing ? '' : '    dnssec-signing: off\n'}`;
}

/** One server under test: a name and what one dnsperf run against it gives. */
export interface Target {
  name: string;
  /** Vigil or a peer: the ratio is the best Vigil over the best peer of each round. */
  vigil: boolean;
  run(): ReturnType<typeof dnsperf>;
  /** One short run before the rounds. */
  warm(): void;
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/**
 * Runs every target once a round, `rounds` times, the order turning each
 * round (Vigil and its peers alternate), so that load from elsewhere on a
 * shared 2-core machine falls on all of them alike; prints each target's
 * median and range, and the median over rounds of best Vigil / best peer.
 */
export function roundsTable(targets: Target[], rounds: number, heading: string): void {
  const runs = new Map<string, ReturnType<typeof dnsperf>[]>(targets.map((t) => [t.name, []]));
  const ratios: number[] = [];
  // Unmeasured: every server's first answers (Vigil's reply caches fill on the first question of each name).
  for (const t of targets) t.warm();
  for (let r = 0; r < rounds; r++) {
    const order = targets.map((_, i) => targets[(i + r) % targets.length]!);
    const qps = new Map<Target, number>();
    for (const t of order) {
      const one = t.run();
      runs.get(t.name)!.push(one);
      qps.set(t, one.qps);
      console.log(`round ${r + 1}: ${t.name} ${one.qps} q/s`);
    }
    const best = (vigil: boolean) => Math.max(...targets.filter((t) => t.vigil === vigil).map((t) => qps.get(t)!));
    if (targets.some((t) => !t.vigil)) ratios.push(best(true) / best(false));
  }
  console.log(`\n${heading}`);
  console.log(`${RRL_NOTE}; ${rounds} rounds, each target once a round, the order turning\n`);
  console.log('| server | queries/s (median) | range | avg reply bytes | lost % |\n|---|---|---|---|---|');
  for (const t of targets) {
    const xs = runs.get(t.name)!;
    const q = xs.map((x) => x.qps);
    console.log(
      `| ${t.name} | ${median(q)} | ${Math.min(...q)} - ${Math.max(...q)} | ${median(xs.map((x) => x.bytes))} | ${median(xs.map((x) => x.lostPct))} |`,
    );
  }
  if (ratios.length)
    console.log(
      `\nbest Vigil / best peer, per round: ${ratios.map((x) => x.toFixed(2)).join(', ')}; median ${median(ratios).toFixed(2)}`,
    );
}

/** A server at `port` under dnsperf: `seconds` a round, 2 s to warm. */
export function dnsperfTarget(
  name: string,
  vigil: boolean,
  port: number,
  queries: string,
  seconds: number,
  extra: string[] = [],
): Target {
  return {
    name,
    vigil,
    run: () => dnsperf(port, queries, seconds, extra),
    warm: () => void dnsperf(port, queries, 2, extra),
  };
}
