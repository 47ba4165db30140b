/**
 * The servers bench/reads.ts measures, each started as its own process on
 * loopback so that the load generator (autocannon, in the bench process)
 * never shares an event loop with a server: `bin/vigil serve` (SQLite or
 * PostgreSQL), PowerDNS 4.7's API (Debian's pdns-server with its SQLite
 * backend, the peer of issue 13) and a bare Fastify HTTPS handler (the
 * ceiling: TLS + HTTP + Fastify and nothing else).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { freePort, tempDir, VIGIL } from '../test/helpers/server.ts';

export interface Started {
  url: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

async function waitFor(what: string, proc: ChildProcess, ready: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`${what} exited ${proc.exitCode}`);
    if (await ready().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} not ready after ${ms} ms`);
}

function stopper(proc: ChildProcess) {
  return async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill('SIGTERM');
    await once(proc, 'exit');
  };
}

/** A new database on a PostgreSQL server whose role may CREATE DATABASE; dropped by the returned function. */
export async function freshPgDatabase(server: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `vigil_bench_${process.pid}_${Date.now()}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: server });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/** utime + stime of a process in microseconds (Linux /proc; fields 14 and 15, in clock ticks of 10 ms). */
export function cpuOf(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}

export interface Vigil extends Started {
  dataDir: string;
  ca: string;
  cert: string;
  key: string;
}

/**
 * `bin/vigil serve` as a user starts it (info-level request logging on,
 * to a file), with extra node flags for profiling (`--cpu-prof`); `bin`
 * starts another checkout's (bench/cheap-ab.ts).
 */
export async function startVigil(opts: {
  db: string | null;
  nodeFlags?: string[];
  logFile: string;
  bin?: string;
}): Promise<Vigil> {
  const dataDir = tempDir('vigil-bench-');
  const port = await freePort();
  const args = [
    'serve',
    '--data',
    dataDir,
    '--https-port',
    String(port),
    '--http-port',
    String(await freePort()),
    '--dns-port',
    '0',
    '--forward-port',
    '0',
  ];
  if (opts.db) args.push('--db', opts.db);
  const proc = spawn(process.execPath, [...(opts.nodeFlags ?? []), opts.bin ?? VIGIL, ...args], {
    env: {
      ...process.env,
      VIGIL_DATA: '',
      VIGIL_LOG_LEVEL: process.env.VIGIL_LOG_LEVEL ?? 'info',
      VIGIL_LOG_FORMAT: 'json',
    },
    stdio: ['ignore', 'pipe', openSync(opts.logFile, 'a')],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  await waitFor('vigil serve', proc, async () => out.includes('vigil ready'));
  const tls = join(dataDir, 'tls');
  const cert = readFileSync(join(tls, 'cert.pem'), 'utf8');
  return {
    url: `https://127.0.0.1:${port}`,
    proc,
    dataDir,
    ca: cert,
    cert,
    key: readFileSync(join(tls, 'key.pem'), 'utf8'),
    stop: stopper(proc),
  };
}

export const PDNS_API_KEY = 'bench-api-key';
const PDNS_SCHEMA = [
  '/usr/share/doc/pdns-backend-sqlite3/schema.sqlite3.sql',
  '/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql',
];

/** null when PowerDNS or its SQLite backend is not installed. */
export function pdnsSchema(): string | null {
  return PDNS_SCHEMA.find((f) => existsSync(f)) ?? null;
}

/**
 * pdns_server with the gsqlite3 backend and its built-in webserver/API on
 * 127.0.0.1 (plain HTTP: PowerDNS's webserver has no TLS; operators put a
 * proxy in front). `zone` is loaded through the API with `rrsets`.
 */
export async function startPdns(zone: { name: string; rrsets: unknown[] }, logFile: string): Promise<Started> {
  const schema = pdnsSchema();
  if (!schema)
    throw new Error(
      'PowerDNS with its SQLite backend is not installed (apt-get install pdns-server pdns-backend-sqlite3)',
    );
  const dir = tempDir('vigil-bench-pdns-');
  const db = new Database(join(dir, 'pdns.sqlite3'));
  db.exec(readFileSync(schema, 'utf8'));
  db.close();
  const apiPort = await freePort();
  writeFileSync(
    join(dir, 'pdns.conf'),
    [
      'launch=gsqlite3',
      `gsqlite3-database=${dir}/pdns.sqlite3`,
      'local-address=127.0.0.1',
      `local-port=${await freePort()}`,
      `socket-dir=${dir}`,
      'daemon=no',
      'guardian=no',
      'disable-syslog=yes',
      'api=yes',
      `api-key=${PDNS_API_KEY}`,
      'webserver=yes',
      'webserver-address=127.0.0.1',
      `webserver-port=${apiPort}`,
      'webserver-allow-from=127.0.0.0/8',
      // Its default level; on this run it wrote no line per request (Vigil writes one per call, at info).
      'webserver-loglevel=normal',
      '',
    ].join('\n'),
  );
  const proc = spawn('pdns_server', [`--config-dir=${dir}`], { stdio: ['ignore', 'ignore', openSync(logFile, 'a')] });
  const url = `http://127.0.0.1:${apiPort}`;
  const headers = { 'x-api-key': PDNS_API_KEY, 'content-type': 'application/json' };
  await waitFor('pdns_server', proc, async () => (await fetch(`${url}/api/v1/servers/localhost`, { headers })).ok);
  const made = await fetch(`${url}/api/v1/servers/localhost/zones`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: zone.name, kind: 'Native', nameservers: [], rrsets: zone.rrsets }),
  });
  if (made.status !== 201) throw new Error(`PowerDNS refused the zone: ${made.status} ${await made.text()}`);
  return { url, proc, stop: stopper(proc) };
}

/**
 * The ceiling: Fastify over HTTPS with Vigil's certificate, a form body
 * read as a string and a fixed JSON reply of the cheap call's size; no
 * logging, no auth, no store. Runs in a child process (this file, with
 * `--bare-fastify`).
 */
export async function startBareFastify(
  cert: string,
  key: string,
  reply: string,
  nodeFlags: string[] = [],
): Promise<Started> {
  const port = await freePort();
  const dir = tempDir('vigil-bench-bare-');
  writeFileSync(join(dir, 'cert.pem'), cert);
  writeFileSync(join(dir, 'key.pem'), key, { mode: 0o600 });
  const proc = spawn(
    process.execPath,
    [...nodeFlags, '--import', 'tsx', import.meta.filename, '--bare-fastify', String(port), dir],
    {
      env: { ...process.env, BARE_REPLY: reply },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  await waitFor('bare fastify', proc, async () => out.includes('listening'));
  return { url: `https://127.0.0.1:${port}`, proc, stop: stopper(proc) };
}

if (process.argv[2] === '--bare-fastify') {
  const [port, dir] = [Number(process.argv[3]), process.argv[4]!];
  const { default: Fastify } = await import('fastify');
  const app = Fastify({
    https: { cert: readFileSync(join(dir, 'cert.pem')), key: readFileSync(join(dir, 'key.pem')) },
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, body),
  );
  const reply = process.env.BARE_REPLY!;
  app.post('/api/*', async (_req, res) => res.type('application/json; charset=utf-8').send(reply));
  await app.listen({ port, host: '127.0.0.1' });
  // A normal exit on SIGTERM, so that --cpu-prof writes its profile.
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
  console.log('listening');
}
