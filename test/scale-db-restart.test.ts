import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import pg from 'pg';
import { VigilClient } from '../src/client/index.ts';
import { freePort, serve, tempDir, VIGIL } from './helpers/server.ts';
import { udpQuery } from './helpers/dns-client.ts';
import { eventually } from './helpers/wait.ts';

const run = promisify(execFile);
const PASSWORD = 'correct horse 5';
const CLUSTER = resolve(import.meta.dirname, '../.ci/pg-cluster');
const pgBin = (() => {
  try {
    const v = readdirSync('/usr/lib/postgresql')
      .sort((a, b) => Number(a) - Number(b))
      .at(-1);
    return v ? `/usr/lib/postgresql/${v}/bin` : null;
  } catch {
    return null;
  }
})();

/** pg_ctl as the cluster's owner (.ci/pg-cluster hands it to `postgres` when run as root). */
function pgCtl(args: string): void {
  const cmd = `'${pgBin}/pg_ctl' ${args}`;
  if (process.getuid?.() === 0) {
    const owner = execFileSync('stat', ['-c', '%U', args.split("'")[1]!])
      .toString()
      .trim();
    execFileSync('su', [owner, '-s', '/bin/sh', '-c', cmd], { stdio: 'ignore' });
  } else execFileSync('sh', ['-c', cmd], { stdio: 'ignore' });
}

async function healthz(port: number): Promise<number> {
  return fetch(`http://127.0.0.1:${port}/healthz`).then(
    (r) => r.status,
    () => 0,
  );
}

// This test stops and starts a PostgreSQL server of its own (a throwaway
// cluster, never the suite's VIGIL_TEST_DB server, which other tests use).
describe('serve while its PostgreSQL restarts', { skip: pgBin ? false : 'PostgreSQL is not installed' }, () => {
  test("calls answer the scripts' system-error codes while the database is down, serve stays up and recovers with its sessions", async () => {
    const dir = tempDir('vigil-pg-restart-');
    const server = (await run(CLUSTER, ['start', dir])).stdout.trim();
    // A database of vigil's own (PostgreSQL 15 lets only its owner create tables in `public`).
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query('CREATE DATABASE vigil_restart');
    await admin.end();
    const url = Object.assign(new URL(server), { pathname: '/vigil_restart' }).toString();
    const port = new URL(url).port;
    const [metricsPort, dnsPort] = [await freePort(), await freePort()];
    try {
      const s = await serve({
        args: [
          '--db',
          url,
          '--metrics-port',
          String(metricsPort),
          '--dns-port',
          String(dnsPort),
          '--domain-hold',
          'none',
          '--publish-interval',
          '300ms',
        ],
      });
      try {
        const { stdout } = await run(
          VIGIL,
          [
            'admin',
            'account',
            'add',
            '--db',
            url,
            '--userid',
            'restart',
            '--password',
            PASSWORD,
            '--dns-credits',
            '1',
            '--json',
          ],
          { env: { ...process.env, VIGIL_DATA: s.dataDir } },
        );
        const apikey = JSON.parse(stdout).apikey;
        const c = s.client();
        await c.login(apikey, 'restart', PASSWORD);
        await c.call('dnsAddDomain.php', { domain: 'restart.example', domaintype: 'master', aup: 'YES' });
        await c.call('dnsAddA.php', { domain: 'restart.example', name: 'www', ip: '192.0.2.8' });
        await c.call('dnsPublish.php', { domain: 'restart.example' });
        const www = async () => (await udpQuery(dnsPort, 'www.restart.example', 'A')).answers?.[0]?.data;
        await eventually(async () => (await www()) === '192.0.2.8', 'served');
        assert.equal(await healthz(metricsPort), 200);

        pgCtl(`-D '${dir}/data' -m fast -w stop`);
        // Down: every reply keeps the spec's shape and HTTP 200. DNS scripts answer the spec's
        // dbConnectionFailure (its codes for every DNS endpoint); the others their system error (docs/scaling.md).
        const reply = async (script: string, fields: Record<string, string>) =>
          await c.post(script, { apikey, sessionToken: c.sessionToken!, ...fields });
        for (const [script, fields, code] of [
          ['dnsGetDomainList.php', {}, 'dbConnectionFailure'],
          ['dnsGetDomainRecords.php', { domain: 'restart.example' }, 'dbConnectionFailure'],
          ['dnsAddA.php', { domain: 'restart.example', name: 'www', ip: '192.0.2.9' }, 'dbConnectionFailure'],
          ['saGetAuditList.php', {}, 'missingScanClientsRec'],
          ['auth.php', { userid: 'restart', password: PASSWORD }, 'sysErrdoLogin'],
        ] as const) {
          const r = await reply(script, fields);
          assert.equal(r.http, 200, script);
          assert.deepEqual(r.body, { status: '-1', error: code }, script);
        }
        assert.equal(await healthz(metricsPort), 503);
        assert.equal(s.proc.exitCode, null, 'serve is still running');
        // The name server answers from its serving set in memory, database or not.
        assert.equal(await www(), '192.0.2.8');

        pgCtl(
          `-D '${dir}/data' -w -l '${dir}/server.log' -o "-k '${dir}' -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off" start`,
        );
        // Back: the pool opens new connections by itself; the session made before still works.
        await eventually(async () => (await healthz(metricsPort)) === 200, 'healthz 200 again', 15_000);
        await c.call('dnsAddA.php', { domain: 'restart.example', name: 'www', ip: '192.0.2.9' });
        const again = new VigilClient({ baseUrl: s.httpsUrl, ca: s.ca });
        try {
          await again.login(apikey, 'restart', PASSWORD);
          // Changed again (state 0): the add made after the restart landed.
          assert.equal((await again.call('dnsGetDomainRecords.php', { domain: 'restart.example' })).state, 0);
        } finally {
          again.close();
        }
      } finally {
        const code = await s.stop();
        assert.equal(code, 0, `serve exited ${code}; stderr:\n${s.stderr()}`);
      }
    } finally {
      await run(CLUSTER, ['stop', dir]).catch(() => {});
    }
  });
});
