import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { VigilClient } from '../../src/client/index.ts';

const run = promisify(execFile);

/**
 * BIND's delv at 127.0.0.1:`port` with the zone's KSK (read from
 * dnsGetDNSSEC.php) as its only trust anchor: its verdict line and the
 * records, stdout and stderr together. `; fully validated` or
 * `; negative response, fully validated` is the verdict a test wants.
 */
export async function delvAt(
  c: VigilClient,
  zone: string,
  dir: string,
  port: number,
  name: string,
  type: string,
): Promise<string> {
  const { dnskey } = await c.call('dnsGetDNSSEC.php', { domain: zone });
  const ksk = (dnskey as string[]).find((l) => / DNSKEY 257 /.test(l))!.split(/\s+/);
  const anchors = join(dir, 'anchors');
  writeFileSync(anchors, `trust-anchors { ${zone}. static-key 257 3 13 "${ksk.slice(7).join('')}"; };\n`);
  const r = await run('delv', ['@127.0.0.1', '-p', String(port), '-a', anchors, `+root=${zone}`, name, type]).catch(
    (e) => e,
  );
  return `${r.stdout}${r.stderr}`;
}

/** dig at 127.0.0.1:`port`, the answer's text (`+dnssec` etc. in `args`). */
export async function digAt(port: number, ...args: string[]): Promise<string> {
  return (await run('dig', ['@127.0.0.1', '-p', String(port), '+norec', ...args])).stdout;
}

/** The zone by AXFR from 127.0.0.1:`port`, written as a master file for dnssec-verify and kzonecheck. */
export async function axfrFile(port: number, zone: string, dir: string): Promise<{ file: string; text: string }> {
  const { stdout } = await run('dig', [
    '@127.0.0.1',
    '-p',
    String(port),
    zone,
    'AXFR',
    '+nocmd',
    '+nostats',
    '+nocomments',
  ]);
  const file = join(dir, `${zone}.axfr`);
  // AXFR ends with the SOA again: the validators want it once.
  const text = `${stdout.trim().split('\n').slice(0, -1).join('\n')}\n`;
  writeFileSync(file, text);
  return { file, text };
}

/** The record types of a master file's lines, counted. */
export function typesIn(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const type = /^\S+\s+\d+\s+IN\s+(\S+)/.exec(line)?.[1];
    if (type) out.set(type, (out.get(type) ?? 0) + 1);
  }
  return out;
}
