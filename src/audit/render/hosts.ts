import type { HostLine, ScanInfo } from '../report.ts';

// The per-host table (issue 26, "say what ran, per host"), read once from
// `basic.hosts` for every format and the console. Pure, no node: imports.

/** What one row shows: `lost` is a host that answered, then went silent mid-scan and was given up. */
export type HostState = 'up' | 'lost' | 'down';

export interface HostRow {
  line: HostLine;
  state: HostState;
  /** The RTT in words: `0.08`, `12.3`, `250`, or `-` when nothing answered. */
  rtt: string;
}

export interface HostsView {
  /** Addresses that answered (or were scanned with discovery off), in the order asked. */
  up: HostRow[];
  /** Addresses that answered nothing, in the order asked: listed apart, as ranges (`downRanges`). */
  down: HostRow[];
  /** False when discovery was off (`--scan-discovery off`): every address was scanned. */
  discovery: boolean;
}

/** Milliseconds to read at a glance: two decimals below 1 ms (loopback), one below 100, whole above. */
export function rttText(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '-';
  return ms < 1 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : String(Math.round(ms));
}

const rowOf = (line: HostLine): HostRow => ({
  line,
  state: line.state === 'down' ? 'down' : line.dropped ? 'lost' : 'up',
  rtt: rttText(line.rtt),
});

/**
 * The hosts of a report, up first (a /24 is 254 rows, mostly down: the
 * live ones are what a reader looks for), or null for a report written
 * before issue 26 (no `basic.hosts`).
 */
export function hostsOf(info: ScanInfo): HostsView | null {
  const lines = info.basic.hosts;
  if (!lines?.length) return null;
  const rows = lines.map(rowOf);
  return {
    up: rows.filter((r) => r.state !== 'down'),
    down: rows.filter((r) => r.state === 'down'),
    discovery: info.basic.discovery !== false,
  };
}

const IPV4 = /^(\d{1,3}\.\d{1,3}\.\d{1,3})\.(\d{1,3})$/;

/**
 * Addresses as the spec's own range notation (`192.0.2.4-254`): each run
 * of consecutive IPv4 addresses in one /24 becomes one item, anything else
 * (IPv6, a lone address) stays as it is. 251 down addresses of a /24 read
 * as one line.
 */
export function addressRanges(ips: readonly string[]): string[] {
  const out: string[] = [];
  let run: { net: string; from: number; to: number } | null = null;
  const flush = () => {
    if (run) out.push(run.from === run.to ? `${run.net}.${run.from}` : `${run.net}.${run.from}-${run.to}`);
    run = null;
  };
  for (const ip of ips) {
    const m = IPV4.exec(ip);
    if (!m) {
      flush();
      out.push(ip);
      continue;
    }
    const [net, last] = [m[1]!, Number(m[2])];
    if (run && run.net === net && run.to + 1 === last) run.to = last;
    else flush(), (run = { net, from: last, to: last });
  }
  flush();
  return out;
}

/** The down addresses as ranges. */
export const downRanges = (v: HostsView): string[] => addressRanges(v.down.map((r) => r.line.ip));

/** The table's columns, shared by text, HTML and the console: a heading and a cell per row. */
export const HOST_COLUMNS: readonly { head: string; numeric: boolean; cell: (r: HostRow) => string }[] = [
  { head: 'Address', numeric: false, cell: (r) => r.line.ip },
  { head: 'State', numeric: false, cell: (r) => r.state },
  { head: 'Found by', numeric: false, cell: (r) => r.line.reason },
  { head: 'RTT ms', numeric: true, cell: (r) => r.rtt },
  { head: 'Ports', numeric: true, cell: (r) => String(r.line.portsScanned) },
  { head: 'Open', numeric: true, cell: (r) => String(r.line.open) },
  { head: 'Closed', numeric: true, cell: (r) => String(r.line.closed) },
  { head: 'Filtered', numeric: true, cell: (r) => String(r.line.filtered) },
  // An ICMP unreachable or no route: nmap counts these filtered; `-` on a report from before the field.
  { head: 'Unreachable', numeric: true, cell: (r) => String(r.line.unreachable ?? '-') },
];

/** One sentence for a host (the CSV's description): `up (tcp), RTT 0.08 ms, 200 ports scanned: 2 open, …`. */
export function hostSentence(r: HostRow): string {
  const l = r.line;
  if (r.state === 'down') return 'down: no answer to host discovery; not port-scanned';
  const lost = r.state === 'lost' ? '; stopped answering mid-scan and was given up' : '';
  const unreachable = l.unreachable ? `, ${l.unreachable} unreachable` : '';
  return `up (${l.reason}), RTT ${r.rtt} ms, ${l.portsScanned} ports scanned: ${l.open} open, ${l.closed} closed, ${l.filtered} filtered${unreachable}${lost}`;
}
