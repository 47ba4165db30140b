import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './server.ts';
import { udpQuery } from './dns-client.ts';
import { docSnippet } from './snippets.ts';

export interface Bind {
  port: number;
  dir: string;
  log: () => string;
  stop(): Promise<void>;
}

export async function startBindSecondary(port: number, primaryPort: number, catalog: string): Promise<Bind> {
  const dir = tempDir('vigil-bind-');
  mkdirSync(join(dir, 'zones'));
  // The configuration of docs/secondaries.md, as an operator would use it for ns1..ns4.
  const config = docSnippet('bind', {
    DIR: dir,
    PORT: port,
    PRIMARY_ADDRESS: '127.0.0.1',
    PRIMARY_PORT: primaryPort,
    CATALOG: catalog,
  });
  return startNamed(dir, config, port, catalog);
}

/** A stock BIND 9 as the master of one zone, NOTIFYing Vigil (its secondary) on every reload. */
export async function startBindPrimary(
  port: number,
  zone: string,
  zoneText: string,
  notifyPort: number,
): Promise<Bind & { setZone(text: string): Promise<void> }> {
  const dir = tempDir('vigil-bind-');
  const file = join(dir, `${zone}.zone`);
  writeFileSync(file, zoneText);
  const conf = `
options {
  directory "${dir}";
  pid-file "${dir}/named.pid";
  session-keyfile "${dir}/session.key";
  managed-keys-directory "${dir}";
  listen-on port ${port} { 127.0.0.1; };
  listen-on-v6 { none; };
  recursion no;
  dnssec-validation no;
};
controls { };
zone "${zone}" {
  type primary;
  file "${file}";
  allow-transfer { 127.0.0.1; };
  notify explicit;
  also-notify { 127.0.0.1 port ${notifyPort}; };
};
`;
  const bind = await startNamed(dir, conf, port, zone);
  return {
    ...bind,
    async setZone(text: string) {
      writeFileSync(file, text);
      bind.reload();
    },
  };
}

async function startNamed(
  dir: string,
  config: string,
  port: number,
  probe: string,
): Promise<Bind & { reload(): void }> {
  const conf = join(dir, 'named.conf');
  writeFileSync(conf, config);
  const bind = await daemon('named', ['-g', '-n', '1', '-c', conf], /running/, port, dir);
  // Up when it answers for the probe zone (or refuses, before a first transfer).
  await udpQuery(port, probe, 'SOA').catch(() => undefined);
  return bind;
}

/** Starts a name-server daemon in the foreground and waits for its "started" line on stderr. */
export async function daemon(
  cmd: string,
  args: string[],
  ready: RegExp,
  port: number,
  dir: string,
): Promise<Bind & { reload(): void }> {
  const proc: ChildProcess = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr!.on('data', (d) => (log += d));
  const exited = new Promise<void>((res) => proc.once('exit', () => res()));
  for (let i = 0; i < 100 && !ready.test(log); i++) {
    if (proc.exitCode !== null) throw new Error(`${cmd} exited: ${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    dir,
    log: () => log,
    reload: () => proc.kill('SIGHUP'),
    async stop() {
      if (proc.exitCode === null) {
        proc.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** Knot DNS as a catalog-zone secondary, configured from docs/secondaries.md. */
export async function startKnotSecondary(port: number, primaryPort: number, catalog: string): Promise<Bind> {
  const dir = tempDir('vigil-knot-');
  mkdirSync(join(dir, 'zones'));
  const conf = join(dir, 'knot.conf');
  writeFileSync(
    conf,
    docSnippet('knot', {
      DIR: dir,
      PORT: port,
      PRIMARY_ADDRESS: '127.0.0.1',
      PRIMARY_PORT: primaryPort,
      CATALOG: catalog,
    }),
  );
  return daemon('knotd', ['-c', conf], /server started/, port, dir);
}
