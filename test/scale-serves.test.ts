import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { VigilClient } from '../src/client/index.ts';
import { testDb, TEST_DB } from './helpers/pgdb.ts';
import { addAccount, freePort, serve, tempDir, VIGIL } from './helpers/server.ts';
import { hasTool } from './helpers/tools.ts';
import { eventually } from './helpers/wait.ts';

const run = promisify(execFile);
const PASSWORD = 'correct horse 5';
const INTERVAL_MS = 1500;

/** The zone's SOA serial as `dig` gets it from the name server on `port`. */
async function digSerial(port: number, zone: string): Promise<number | null> {
  const { stdout } = await run('dig', ['@127.0.0.1', '-p', String(port), '+short', '+time=1', '+tries=1', 'SOA', zone]);
  const fields = stdout.trim().split(/\s+/);
  return fields.length >= 7 ? Number(fields[2]) : null;
}

/** The `cycle` numbers of the 'distribution cycle' lines a serve logged (JSON lines on stderr). */
function cyclesRun(stderr: string): number[] {
  return stderr
    .split('\n')
    .filter((l) => l.includes('"msg":"distribution cycle"'))
    .map((l) => JSON.parse(l).cycle as number);
}

// Two serves on one store: the suite's PostgreSQL database under VIGIL_TEST_DB
// (both are given the same data directory, so test/helpers/pgdb.ts gives them
// one database), else the data directory's SQLite file, shared the same way.
describe('two bin/vigil serve on one store', { skip: hasTool('dig') ? false : 'dig is not installed' }, () => {
  test('same answers from both name servers, sessions work on both, one distribution per cycle for the set', async () => {
    const dataDir = tempDir();
    const [dnsA, dnsB] = [await freePort(), await freePort()];
    const common = ['--publish-interval', `${INTERVAL_MS}ms`, '--domain-hold', 'none'];
    // debug: a cycle that changed nothing is logged at debug only, and the count needs every cycle.
    const env = { VIGIL_LOG_LEVEL: 'debug', VIGIL_LOG_FORMAT: 'json' };
    const started = Date.now();
    // One after the other: the first makes the store and the TLS certificate, the second uses both.
    const a = await serve({ dataDir, args: ['--dns-port', String(dnsA), ...common], env });
    const b = await serve({ dataDir, args: ['--dns-port', String(dnsB), ...common], env });
    try {
      const apikey = await addAccount(dataDir, 'scale', PASSWORD, '--dns-credits', '2');
      const ca = a.ca;
      const viaA = a.client();
      await viaA.login(apikey, 'scale', PASSWORD);
      // A session made on one serve works on the other (sessions live in the store).
      const viaB = new VigilClient({ baseUrl: b.httpsUrl, ca });
      viaB.apikey = apikey;
      viaB.sessionToken = viaA.sessionToken;
      try {
        await viaA.call('dnsAddDomain.php', { domain: 'scale.example', domaintype: 'master', aup: 'YES' });
        await viaB.call('dnsAddA.php', { domain: 'scale.example', name: 'www', ip: '192.0.2.13' });
        const pub = await viaA.call('dnsPublish.php', { domain: 'scale.example' });
        assert.equal(pub.errors, undefined);
        // Distributed by whichever serve's timer won the cycle; B's list says the served serial.
        let serial = 0;
        await eventually(async () => {
          const list = await viaB.call('dnsGetDomainList.php', {});
          serial = Number(Object.values<any>(list.domains)[0].servedSerial);
          return serial > 0;
        }, 'distributed');
        // Published through A, answered with the same serial by both name servers.
        await eventually(async () => (await digSerial(dnsA, 'scale.example')) === serial, `A serves serial ${serial}`);
        await eventually(async () => (await digSerial(dnsB, 'scale.example')) === serial, `B serves serial ${serial}`);
        // Both say the same next cycle (the set's), within a poll of the last one.
        await eventually(
          async () => {
            const [la, lb] = [await viaA.call('dnsGetDomainList.php', {}), await viaB.call('dnsGetDomainList.php', {})];
            return la.nextDistribution === lb.nextDistribution;
          },
          'the same next cycle on A and B',
          10_000,
        );

        // Let the set run a few cycles, then count them across both processes.
        await eventually(
          async () => cyclesRun(a.stderr()).length + cyclesRun(b.stderr()).length >= 4,
          'four cycles of the set',
        );
        const elapsed = Date.now() - started;
        const all = [...cyclesRun(a.stderr()), ...cyclesRun(b.stderr())].sort((x, y) => x - y);
        // Each cycle number was run by exactly one process, none skipped:
        // one distribution per cycle, not one per process.
        assert.deepEqual(
          all,
          all.map((_, i) => all[0]! + i),
          `cycles run: ${all.join(',')}`,
        );
        // And not more often than the interval allows for the whole set (two
        // uncoordinated serves would run about twice this many). Load can only
        // make cycles later, never more frequent: an upper bound is safe.
        assert.ok(
          all.length <= Math.floor(elapsed / INTERVAL_MS) + 1,
          `${all.length} cycles in ${elapsed} ms at ${INTERVAL_MS} ms`,
        );
      } finally {
        viaB.close();
      }
    } finally {
      assert.equal(await b.stop(), 0);
      assert.equal(await a.stop(), 0);
    }
  });
});

/** The example of docs/scaling.md, placeholders filled: the docs are what the test runs. */
function docExample(values: Record<string, string | number>): string {
  const doc = readFileSync(resolve(import.meta.dirname, '../docs/scaling.md'), 'utf8');
  const m = /<!-- example: two-serves -->\n```sh\n([\s\S]*?)```/.exec(doc);
  if (!m) throw new Error('docs/scaling.md has no two-serves example');
  return m[1]!.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    if (!(key in values)) throw new Error(`no value for {{${key}}}`);
    return String(values[key]);
  });
}

describe('docs/scaling.md: the two-serves example', {
  skip: !TEST_DB
    ? 'needs VIGIL_TEST_DB (a PostgreSQL server)'
    : !hasTool('openssl')
      ? 'openssl is not installed'
      : false,
}, () => {
  test('starts two serves and a worker on one database; a session made on one works on the other', async () => {
    const etc = tempDir();
    const ports = {
      HTTPS_A: await freePort(),
      HTTPS_B: await freePort(),
      DNS_A: await freePort(),
      DNS_B: await freePort(),
    };
    const db = (await testDb(etc))!;
    const script = `vigil() { '${VIGIL}' "$@"; }\n${docExample({ ETC: etc, DB: db, ...ports })}`;
    // Its own process group: one signal stops the whole set, as a service manager would.
    const set = spawn('bash', ['-c', script], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, VIGIL_LOG_LEVEL: 'warn' },
    });
    let out = '';
    let err = '';
    set.stdout!.on('data', (d) => (out += d));
    set.stderr!.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((res) => set.once('exit', (code) => res(code)));
    try {
      await eventually(
        async () => (out.match(/^vigil ready /gm) ?? []).length === 2 && /^vigil worker ready /m.test(out),
        `two ready lines and a worker's; stderr: ${err}`,
      );
      const apikey = await adminKey(db, etc);
      const ca = readFileSync(join(etc, 'cert.pem'), 'utf8');
      const a = new VigilClient({ baseUrl: `https://127.0.0.1:${ports.HTTPS_A}`, ca });
      const b = new VigilClient({ baseUrl: `https://127.0.0.1:${ports.HTTPS_B}`, ca });
      try {
        await a.login(apikey, 'example', PASSWORD);
        [b.apikey, b.sessionToken] = [a.apikey, a.sessionToken];
        await b.call('dnsAddDomain.php', { domain: 'example-set.example', domaintype: 'master', aup: 'YES' });
        const list = await a.call('dnsGetDomainList.php', {});
        assert.deepEqual(
          Object.values<any>(list.domains).map((d) => d.domain),
          ['example-set.example'],
        );
      } finally {
        a.close();
        b.close();
      }
    } finally {
      process.kill(-set.pid!, 'SIGTERM');
      await exited;
    }
  });
});

/** An account made with `admin` on the set's database. */
async function adminKey(db: string, dataDir: string): Promise<string> {
  const { stdout } = await run(
    VIGIL,
    [
      'admin',
      'account',
      'add',
      '--db',
      db,
      '--data',
      dataDir,
      '--userid',
      'example',
      '--password',
      PASSWORD,
      '--dns-credits',
      '1',
      '--json',
    ],
    { env: { ...process.env, VIGIL_DATA: '' } },
  );
  return JSON.parse(stdout).apikey;
}
