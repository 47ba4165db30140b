import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Bind, daemon } from './bind.ts';
import { tempDir } from './server.ts';
import { docSnippet, type SnippetName } from './snippets.ts';

const run = promisify(execFile);

/** Runs a shell snippet of docs/secondaries.md as the operator would paste it. */
export async function runSnippet(name: SnippetName, values: Record<string, string | number>): Promise<void> {
  await run('sh', ['-ec', docSnippet(name, values)]);
}

/** PowerDNS as a catalog consumer, configured and set up from docs/secondaries.md. */
export async function startPdnsSecondary(port: number, primaryPort: number, catalog: string): Promise<Bind> {
  const dir = tempDir('vigil-pdns-');
  const values = { DIR: dir, PORT: port, PRIMARY_ADDRESS: '127.0.0.1', PRIMARY_PORT: primaryPort, CATALOG: catalog };
  writeFileSync(join(dir, 'pdns.conf'), docSnippet('pdns', values));
  await runSnippet('pdns-setup', values);
  return daemon('pdns_server', [`--config-dir=${dir}`], /ready to distribute questions/, port, dir);
}

export interface Nsd extends Bind {
  /** The operator's step when a tenant adds a zone (NSD < 4.9 has no catalog). */
  addZone(zone: string): Promise<void>;
  delZone(zone: string): Promise<void>;
}

/** NSD as a plain per-zone secondary, configured from docs/secondaries.md. */
export async function startNsdSecondary(port: number, primaryPort: number): Promise<Nsd> {
  const dir = tempDir('vigil-nsd-');
  mkdirSync(join(dir, 'zones'));
  const values = { DIR: dir, PORT: port, PRIMARY_ADDRESS: '127.0.0.1', PRIMARY_PORT: primaryPort };
  writeFileSync(join(dir, 'nsd.conf'), docSnippet('nsd', values));
  const nsd = await daemon('nsd', ['-d', '-c', join(dir, 'nsd.conf')], /nsd started/, port, dir);
  return {
    ...nsd,
    addZone: (zone) => runSnippet('nsd-addzone', { ...values, ZONE: zone }),
    delZone: (zone) => runSnippet('nsd-delzone', { ...values, ZONE: zone }),
  };
}
