/**
 * bench/wan.ts --audit TYPE[,TYPE…]: Vigil's whole audit of the /24 (scan,
 * detection, the type's checks: runAudit, as saRunAudit runs it; see
 * vigil-audit.ts) next to `nmap -sS -T4` on the same ports, per setting.
 * `advanced` scans 1-65535; nmap's full range takes ~10 minutes a setting
 * (issue 26: 564-578 s at 50 ms), so nmap scans the `--quick` list for it
 * unless `--nmap-full` is given, and the row says which.
 */
import { portsFor } from '../../src/audit/engine/ports.ts';
import { portRanges } from '../../src/audit/report-ports.ts';
import type { AuditType } from '../../src/audit/types.ts';
import { runIn, type Wan } from './netns.ts';

export interface AuditBench {
  wan: Wan;
  setting: string;
  addresses: string[];
  types: AuditType[];
  /** The `--quick` list: nmap's ports for `advanced` unless `nmapFull`. */
  quickPorts: readonly number[];
  nmapFull: boolean;
  vigilOnly: boolean;
  /** nmap's rows only (its full range at 200 ms takes over half an hour: run it apart, in the background). */
  nmapOnly?: boolean;
  net: string;
  /** Passed to vigil-audit.ts as is (hostConcurrency, profile). */
  child?: { hostConcurrency?: number; profile?: boolean };
  row: (
    setting: string,
    sc: { tool: string; ms: number; hosts: string[]; open: string[]; detected?: number },
    scope?: ReadonlySet<number>,
  ) => void;
  readNmap: (text: string) => { hosts: string[]; open: string[] };
}

const timed = async <T>(f: () => Promise<T>): Promise<[number, T]> => {
  const t0 = performance.now();
  const v = await f();
  return [performance.now() - t0, v];
};

export async function auditRows(b: AuditBench): Promise<void> {
  for (const type of b.types) {
    const own = portsFor(type);
    if (!b.nmapOnly) await vigilRow(b, type, own);
    if (b.vigilOnly) continue;
    const theirs = type === 'advanced' && !b.nmapFull ? b.quickPorts : own;
    const [ms, nmap] = await timed(() =>
      runIn(b.wan, b.wan.scanNs, 'nmap', ['-sS', '-T4', '-n', '-p', portRanges(theirs), '-oG', '-', `${b.net}.0/24`]),
    );
    b.row(b.setting, { tool: `nmap -sS -T4 (${theirs.length} ports)`, ms, ...b.readNmap(nmap) }, new Set(theirs));
  }
}

async function vigilRow(b: AuditBench, type: AuditType, own: readonly number[]): Promise<void> {
  const out = await runIn(b.wan, b.wan.scanNs, process.execPath, [
    '--import',
    'tsx',
    new URL('./vigil-audit.ts', import.meta.url).pathname,
    JSON.stringify({ addresses: b.addresses, type, ...b.child }),
  ]);
  const v = JSON.parse(out.trim().split('\n').pop()!) as {
    ms: number;
    phases: Record<string, number>;
    ports: number;
    checksRun: number;
    checksFailed: number;
    findings: number;
    hosts: string[];
    open: string[];
    detected: number;
    slowest: string[];
  };
  const phases = Object.entries(v.phases)
    .map(([p, t]) => `${p} until ${(t / 1000).toFixed(1)} s`)
    .join(', ');
  console.error(
    `Vigil ${type}, ${b.setting}: ${v.ports} ports, ${v.checksRun} checks a host, ${v.checksFailed} check runs failed, ${v.findings} findings; ${phases}${v.slowest.map((l) => `\n  ${l}`).join('')}`,
  );
  b.row(b.setting, { ...v, tool: `Vigil \`${type}\` audit (${own.length} ports)` }, new Set(own));
}
