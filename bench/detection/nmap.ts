/**
 * Runs nmap (-oX to a file, bounded in time) and reads the little of its
 * XML the matchers need: per host and open port, the -sV service line and
 * each script's output text.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface NmapPort {
  port: number;
  proto?: 'tcp' | 'udp';
  /** "name product version (extrainfo)", e.g. "ftp vsftpd 2.3.4". */
  service: string;
  scripts: { id: string; output: string }[];
}

export interface NmapRun {
  args: string[];
  ms: number;
  timedOut: boolean;
  exitCode: number | null;
  stderr: string;
  hosts: Map<string, NmapPort[]>;
}

const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|quot|apos|lt|gt|amp);/gi, (_, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
      : ({ quot: '"', apos: "'", lt: '<', gt: '>', amp: '&' } as Record<string, string>)[e.toLowerCase()]!,
  );

const attr = (tag: string, name: string) => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? decode(m[1]!) : '';
};

export function parseNmapXml(xml: string): Map<string, NmapPort[]> {
  const hosts = new Map<string, NmapPort[]>();
  for (const [host] of xml.matchAll(/<host[\s>][\s\S]*?<\/host>/g)) {
    const address = attr(/<address [^>]*addrtype="ipv4"[^>]*>/.exec(host)?.[0] ?? '', 'addr');
    const ports: NmapPort[] = [];
    for (const m of host.matchAll(/<port [^>]*>[\s\S]*?<\/port>/g)) {
      const p = m[0];
      if (attr(/<state [^>]*>/.exec(p)?.[0] ?? '', 'state') !== 'open') continue;
      const svc = /<service [^>]*>/.exec(p)?.[0] ?? '';
      const extra = attr(svc, 'extrainfo');
      const service = [attr(svc, 'name'), attr(svc, 'product'), attr(svc, 'version'), extra && `(${extra})`]
        .filter(Boolean)
        .join(' ');
      const scripts = [...p.matchAll(/<script [^>]*>/g)].map((s) => ({
        id: attr(s[0], 'id'),
        output: attr(s[0], 'output'),
      }));
      const tag = /<port [^>]*>/.exec(p)![0];
      ports.push({
        port: Number(attr(tag, 'portid')),
        proto: attr(tag, 'protocol') === 'udp' ? 'udp' : 'tcp',
        service,
        scripts,
      });
    }
    if (address) hosts.set(address, ports);
  }
  return hosts;
}

/** nmap with `args` + -oX; killed after `limitMs`; whatever hosts finished before are kept. */
export async function runNmap(args: string[], limitMs: number): Promise<NmapRun> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-nmap-'));
  const out = join(dir, 'out.xml');
  const full = [...args, '-oX', out];
  const t0 = performance.now();
  const child = spawn('nmap', full, { stdio: ['ignore', 'ignore', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
  let timedOut = false;
  const timer = setTimeout(() => ((timedOut = true), child.kill('SIGKILL')), limitMs);
  const exitCode = await new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  clearTimeout(timer);
  let xml = '';
  try {
    xml = readFileSync(out, 'utf8');
  } catch {
    // nmap never wrote its file (not installed, or killed at once)
  }
  rmSync(dir, { recursive: true, force: true });
  return { args: full, ms: performance.now() - t0, timedOut, exitCode, stderr, hosts: parseNmapXml(xml) };
}

/**
 * One nmap per address, `parallel` at a time, each bounded by `limitMs`: a
 * host whose scripts hang costs its own result, not everyone's. Same
 * parallelism as Vigil's audits (four addresses at a time).
 */
export async function runNmapPerHost(
  args: (address: string) => string[],
  addresses: readonly string[],
  limitMs: number,
  parallel = 4,
): Promise<NmapRun> {
  const t0 = performance.now();
  const runs: NmapRun[] = [];
  let next = 0;
  const lane = async () => {
    while (next < addresses.length) {
      const address = addresses[next++]!;
      runs.push(await runNmap([...args(address), address], limitMs));
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  const failed = runs.filter((r) => r.exitCode !== 0);
  return {
    args: [...args('<address>'), '<address>'],
    ms: performance.now() - t0,
    timedOut: runs.some((r) => r.timedOut),
    exitCode: failed.length ? failed[0]!.exitCode : 0,
    stderr: failed
      .map((r) => `${r.args.at(-3)}: ${r.timedOut ? 'killed at the time limit' : r.stderr.trim().slice(-200)}`)
      .join('\n'),
    hosts: new Map(runs.flatMap((r) => [...r.hosts])),
  };
}

const running = new Set<ChildProcess>();
/** Kills the nmap this module started, if one still runs (the bench's early exit). */
export const killNmap = () => running.forEach((c) => c.kill('SIGKILL'));

export const nmapAvailable = () =>
  new Promise<boolean>((resolve) => {
    const c = spawn('nmap', ['--version'], { stdio: 'ignore' });
    c.once('exit', (code) => resolve(code === 0));
    c.once('error', () => resolve(false));
  });
