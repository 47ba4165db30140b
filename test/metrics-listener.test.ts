import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { dbArgs } from './helpers/pgdb.ts';
import { addAccount, adminJson, freePort, serve, tempDir, VIGIL } from './helpers/server.ts';
import { dataDirWithStore } from './helpers/store.ts';
import { eventually } from './helpers/wait.ts';
import { startWorker } from './helpers/workers.ts';

/** Issue 28 (the metrics listener) and issue 29 (the worker's operator flags). */
const PASSWORD = 'correct horse 28';
const run = promisify(execFile);

/** True when something accepts a TCP connection at host:port. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((res) => {
    const s = connect({ host, port }, () => {
      s.destroy();
      res(true);
    }).on('error', () => res(false));
  });
}

describe('serve: the metrics listener', () => {
  test('binds --metrics-listen, not --listen; zone names only with --metrics-zone-names', async () => {
    const [port, dnsPort] = [await freePort(), await freePort()];
    const args = (...more: string[]) => [
      ...['--metrics-port', String(port), '--metrics-listen', '127.0.0.3', '--dns-port', String(dnsPort)],
      ...['--domain-hold', 'none', '--publish-interval', '1h', ...more],
    ];
    let s = await serve({ args: args() });
    try {
      // --listen is 127.0.0.1 (serve's default): the metrics listener is not there.
      assert.match(s.readyLine, new RegExp(` metrics=127\\.0\\.0\\.3:${port}( |$)`));
      assert.equal(await accepts('127.0.0.1', port), false, 'nothing on the API address');
      const key = await addAccount(s.dataDir, 'tenant', PASSWORD, '--dns-credits', '2');
      const c = s.client();
      await c.login(key, 'tenant', PASSWORD);
      await c.call('dnsAddDomain.php', { domain: 'secret-customer.example', domaintype: 'master', aup: 'YES' });
      await c.call('dnsPublish.php', { domain: 'secret-customer.example' });
      assert.deepEqual((await adminJson(s.dataDir, 'distribute')).distributed, ['secret-customer.example']);
      const scrape = async () => (await fetch(`http://127.0.0.3:${port}/metrics`)).text();
      await eventually(async () => (await scrape()).includes('vigil_zones_served 1'), 'the zone counted');
      // Before: vigil_zone_served_serial{zone="secret-customer.example"} for anyone reaching the listener.
      assert.doesNotMatch(await scrape(), /secret-customer|zone=/);
      // Series that exist before their first event, so that rate() sees it: zone-health levels, the caps.
      assert.match(await scrape(), /^vigil_zone_health_findings_total\{level="ERROR"\} 0$/m);
      assert.match(await scrape(), /^vigil_connections_closed_total\{listener="dns-tcp",reason="shed"\} 0$/m);
    } finally {
      await s.stop();
    }
    s = await serve({ dataDir: s.dataDir, args: args('--metrics-zone-names') });
    try {
      const text = await (await fetch(`http://127.0.0.3:${port}/metrics`)).text();
      assert.match(text, /^vigil_zone_served_serial\{zone="secret-customer\.example"\} \d{10}$/m);
    } finally {
      await s.stop();
    }
  });
});

describe('worker: --config, --log-format and a metrics listener', () => {
  test('the file gives the metrics port; the listener serves process and queue metrics and /healthz', async () => {
    const dataDir = await dataDirWithStore();
    const port = await freePort();
    const file = join(tempDir(), 'worker.conf');
    writeFileSync(
      file,
      `# the worker's own flags\nmetrics-port = ${port}\nmetrics-listen = 127.0.0.1\naudit-workers = 1\n`,
    );
    const w = await startWorker(dataDir, ['--config', file, '--log-format', 'pretty']);
    try {
      assert.match(w.readyLine, new RegExp(` audit-workers=1 .* metrics=127\\.0\\.0\\.1:${port}$`));
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      assert.equal(health.status, 200);
      assert.equal((await health.text()).trim(), 'ok');
      const m = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      assert.match(m, /^vigil_audits\{state="queued"\} 0$/m);
      assert.match(m, /^vigil_process_resident_memory_bytes \d+/m);
      assert.match(m, /^# TYPE vigil_audit_duration_seconds histogram$/m);
      // A worker starts scheduled runs too: the set's schedule series are here as well as in serve's.
      assert.match(m, /^vigil_schedules_due 0$/m);
      assert.match(m, /^vigil_schedule_runs_total\{outcome="queued"\} 0$/m);
      assert.doesNotMatch(m, /vigil_api_requests_total|vigil_distribution_/, "serve's series are not the worker's");
      // --log-format on the command line beats VIGIL_LOG_FORMAT=json (the helper's): readable lines, not JSON.
      await eventually(async () => /worker started/.test(w.stderr()), 'the start logged');
      const line = w
        .stderr()
        .split('\n')
        .find((l) => l.includes('worker started'))!;
      assert.ok(!line.trimStart().startsWith('{'), line);
    } finally {
      assert.equal(await w.stop(), 0);
    }
  });

  test("a key that is not a worker flag (serve's https-port) stops the start, naming the file and line", async () => {
    const dataDir = await dataDirWithStore();
    const file = join(tempDir(), 'worker.conf');
    writeFileSync(file, 'audit-workers = 1\nhttps-port = 8443\n');
    const err = await run(VIGIL, ['worker', '--data', dataDir, ...(await dbArgs(dataDir)), '--config', file], {
      env: { ...process.env, VIGIL_DB: '', VIGIL_DATA: '' },
    }).then(
      () => assert.fail('the worker started'),
      (e: { code: number; stderr: string }) => e,
    );
    assert.notEqual(err.code, 0);
    assert.match(
      err.stderr,
      new RegExp(`config file ${file}, line 2: unknown key 'https-port' \\(the keys are the worker flags`),
    );
  });
});
