/**
 * Job queue servers that have no authentication at all, so that reaching
 * the port is the whole of the access control:
 * - beanstalkd's protocol (https://github.com/beanstalkd/beanstalkd/blob/master/doc/protocol.txt):
 *   one command a line (CRLF), `stats` answered `OK <bytes>` and a YAML
 *   dictionary; `use`, `put`, `delete` for the intrusive write proof.
 * - Gearman's administrative text protocol (https://gearman.org/protocol/,
 *   "Administrative Protocol"): `version` answered `OK <version>`, `status`
 *   and `workers` answered with lines ended by a line holding ".".
 */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

const crlfDone = (b: Buffer) => b.includes('\r\n');
const dotDone = (b: Buffer) => /(^|\n)\.\r?\n$/.test(b.toString('latin1'));

/** `OK <bytes>\r\n<data>\r\n` read whole (protocol.txt, "stats"). */
export const okData = (b: Buffer) => {
  const m = /^OK (\d+)\r\n/.exec(b.toString('latin1'));
  return m ? b.length >= m[0].length + Number(m[1]) + 2 : b.includes('\r\n');
};

/** The YAML dictionary of a beanstalkd `stats` answer ("key: value" lines). */
export function parseBeanstalkStats(b: Buffer): Record<string, string> | null {
  const m = /^OK (\d+)\r\n/.exec(b.toString('latin1'));
  if (!m) return null;
  const yaml = b.subarray(m[0].length, m[0].length + Number(m[1])).toString('utf8');
  if (!yaml.startsWith('---')) return null;
  const out: Record<string, string> = {};
  for (const line of yaml.split('\n')) {
    const kv = /^([\w-]+):\s*(.*)$/.exec(line.trim());
    if (kv) out[kv[1]!] = kv[2]!.replace(/^"(.*)"$/, '$1');
  }
  // Every beanstalkd since 1.0 reports these (protocol.txt, "stats"); a YAML reply without them is not one.
  return 'current-jobs-ready' in out && 'total-jobs' in out ? out : null;
}

/** `stats` on a fresh connection: the server's statistics, or null. */
export function beanstalkStats(net: Net, port: number): Promise<Record<string, string> | null> {
  return talk(net, port, async (c) => {
    const stats = parseBeanstalkStats(await c.ask('stats\r\n', 3000, okData));
    c.send('quit\r\n');
    return stats;
  });
}

export interface BeanstalkWrite {
  tube: string;
  /** The job id INSERTED answered. */
  id: string;
  /** What `delete` answered (DELETED when the job is gone again). */
  deleted: string;
}

/**
 * `use <tube>`, `put` one delayed job, `delete` it: proof that anyone can
 * queue work. The job is delayed an hour so no worker can reserve it before
 * it is deleted (a delayed job is not ready, protocol.txt "put"), and it
 * goes to a tube of the scanner's own that no worker watches.
 */
export function beanstalkPutDelete(net: Net, port: number, tube: string, body: string): Promise<BeanstalkWrite | null> {
  return talk(net, port, async (c) => {
    const used = (await c.ask(`use ${tube}\r\n`, 3000, crlfDone)).toString('latin1');
    if (!used.startsWith(`USING ${tube}`)) return null;
    const put = (await c.ask(`put 1024 3600 60 ${Buffer.byteLength(body)}\r\n${body}\r\n`, 3000, crlfDone)).toString(
      'latin1',
    );
    const id = /^INSERTED (\d+)\r\n/.exec(put)?.[1];
    if (!id) return null;
    const deleted = (await c.ask(`delete ${id}\r\n`, 3000, crlfDone)).toString('latin1').trim();
    c.send('quit\r\n');
    return { tube, id, deleted };
  });
}

export interface GearmanAdmin {
  version: string;
  /** `status` lines: function, total, running, available workers (tab-separated). */
  functions: string[];
  /** `workers` lines: fd, address, client id, functions. */
  workers: string[];
}

const lines = (b: Buffer) =>
  b
    .toString('latin1')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && l !== '.');

/** `version`, `status`, `workers` on the administrative protocol; null unless `version` is answered OK. */
export function gearmanAdmin(net: Net, port: number): Promise<GearmanAdmin | null> {
  return talk(net, port, async (c) => {
    const v = /^OK (\d[\w.+-]*)\r?\n/.exec((await c.ask('version\n', 3000, (b) => b.includes(10))).toString('latin1'));
    if (!v) return null;
    const status = await c.ask('status\n', 3000, dotDone);
    if (!dotDone(status)) return null;
    const workers = await c.ask('workers\n', 3000, dotDone);
    return { version: v[1]!, functions: lines(status), workers: dotDone(workers) ? lines(workers) : [] };
  });
}
