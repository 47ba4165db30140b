import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './server.ts';
import { udpQuery } from './dns-client.ts';

export interface Bind {
  port: number;
  dir: string;
  log: () => string;
  stop(): Promise<void>;
}

/**
 * A stock BIND 9 on loopback as a catalog-zone secondary of Vigil: the
 * configuration an operator would use for ns1..ns4 (docs/secondaries.md).
 */
export function bindSecondaryConfig(o: { dir: string; port: number; primaryPort: number; catalog: string }): string {
  return `
options {
  directory "${o.dir}";
  pid-file "${o.dir}/named.pid";
  session-keyfile "${o.dir}/session.key";
  managed-keys-directory "${o.dir}";
  listen-on port ${o.port} { 127.0.0.1; };
  listen-on-v6 { none; };
  recursion no;
  dnssec-validation no;
  notify no;
  allow-new-zones yes;
  catalog-zones {
    zone "${o.catalog}" default-primaries { 127.0.0.1 port ${o.primaryPort}; }
      zone-directory "${o.dir}/zones" in-memory yes min-update-interval 1;
  };
};
controls { };
zone "${o.catalog}" {
  type secondary;
  file "${o.dir}/catalog.db";
  primaries { 127.0.0.1 port ${o.primaryPort}; };
};
`;
}

export async function startBindSecondary(port: number, primaryPort: number, catalog: string): Promise<Bind> {
  const dir = tempDir('vigil-bind-');
  mkdirSync(join(dir, 'zones'));
  const conf = join(dir, 'named.conf');
  writeFileSync(conf, bindSecondaryConfig({ dir, port, primaryPort, catalog }));
  const proc: ChildProcess = spawn('named', ['-g', '-n', '1', '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr!.on('data', (d) => (log += d));
  const exited = new Promise<void>((res) => proc.once('exit', () => res()));
  for (let i = 0; i < 100; i++) {
    if (/running/.test(log)) break;
    if (proc.exitCode !== null) throw new Error(`named exited: ${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // Up when it answers for its catalog copy (or refuses, before the first transfer).
  await udpQuery(port, catalog, 'SOA').catch(() => undefined);
  return {
    port,
    dir,
    log: () => log,
    async stop() {
      if (proc.exitCode === null) {
        proc.kill('SIGTERM');
        await exited;
      }
    },
  };
}
