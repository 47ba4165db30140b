import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import type { VigilClient } from '../src/client/index.ts';
import type { CycleLoop } from '../src/dns/cycle-loop.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { freePort } from './helpers/server.ts';

const PASSWORD = 'correct horse 71t';
const PUB_BAD = 'pubbad.example';
const PUB_OK = 'pubok.example';
const SIGN_BAD = 'signbad.example';
const SIGN_OK = 'signok.example';

/** One sample of the Prometheus text, e.g. sample(text, 'vigil_worker_thread_starts_total{thread="sign"}'). */
function sample(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}

/**
 * A job that throws on the publish or the signing thread (the test-only
 * hook config.threadFaultZones: the thread itself throws, nothing is
 * mocked) is a typed fault, `workerThreadFailed`: the API answers the
 * spec's only code for it (`unspecifiedError`), the log line carries the
 * typed code, the next job runs on a new thread and succeeds, and the
 * metrics count both. Without the fix the fault was an untyped Error, the
 * thread was kept, and no metric counted jobs.
 */
describe('faults on the worker threads', () => {
  let t: TestApp;
  let c: VigilClient;
  let metricsPort: number;
  const log: Record<string, any>[] = [];
  const scrape = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  const failed = (msg: string) => log.filter((l) => l.msg === msg && l.err?.code === 'workerThreadFailed');
  const codeOf = (p: Promise<unknown>) =>
    p.then(
      () => 'ok',
      (e: { code?: string }) => e.code,
    );

  before(async () => {
    metricsPort = await freePort();
    const logger = pino({ level: 'info' }, { write: (line: string) => void log.push(JSON.parse(line)) });
    t = await startTestApp(
      { domainHold: 'none', metricsPort, threadFaultZones: { publish: PUB_BAD, sign: SIGN_BAD } },
      { logger },
    );
    c = t.client();
    await c.login(await t.account('faults', PASSWORD, { dnsCredits: 4 }), 'faults', PASSWORD);
    for (const domain of [PUB_BAD, PUB_OK, SIGN_BAD, SIGN_OK]) {
      await c.call('dnsAddDomain.php', { domain, domaintype: 'master', aup: 'YES' });
      await c.call('dnsAddA.php', { domain, name: 'www', ip: '192.0.2.1' });
    }
  });
  after(() => t?.close());

  test('publish thread: the faulty job answers unspecifiedError with a typed log line; the next one succeeds on a new thread', async () => {
    assert.equal(await codeOf(c.call('dnsPublish.php', { domain: PUB_BAD })), 'unspecifiedError');
    assert.deepEqual(
      failed('script failed').map((l) => [l.script, l.err.thread]),
      [['dnsPublish.php', 'publish']],
    );
    assert.equal((await c.call('dnsPublish.php', { domain: PUB_OK })).errors, undefined);
    // dnsBuildZone.php's job goes to the same thread.
    assert.equal(await codeOf(c.call('dnsBuildZone.php', { domain: PUB_BAD })), 'unspecifiedError');
    assert.match((await c.call('dnsBuildZone.php', { domain: PUB_OK })).zone, /\bA\s+192\.0\.2\.1\b/);

    const m = await scrape();
    const jobs = (result: string) => sample(m, `vigil_worker_thread_jobs_total{thread="publish",result="${result}"}`);
    assert.equal(jobs('workerThreadFailed'), 2);
    assert.equal(jobs('ok'), 2);
    assert.equal(jobs('workerThreadLost'), 0);
    assert.equal(sample(m, 'vigil_worker_thread_job_duration_seconds_count{thread="publish"}'), 4);
    // The first job's thread, and a new one after each fault.
    assert.equal(sample(m, 'vigil_worker_thread_starts_total{thread="publish"}'), 3);
    for (const script of ['dnsPublish.php', 'dnsBuildZone.php'])
      assert.equal(sample(m, `vigil_api_requests_total{script="${script}",code="unspecifiedError"}`), 1, script);
  });

  test('signing thread: the faulty zone is logged with the typed code and left unsigned; the other zone is signed', async () => {
    const cycle = () => (t.app.services.dns.schedule as CycleLoop).cycle();
    for (const domain of [SIGN_BAD, SIGN_OK]) {
      await c.call('dnsSetDNSSEC.php', { domain, enable: 'YES' });
      await c.call('dnsPublish.php', { domain });
    }
    await cycle();
    assert.deepEqual(
      failed('dnssec: signing failed').map((l) => [l.zone, l.err.thread]),
      [[SIGN_BAD, 'sign']],
    );
    assert.deepEqual((await c.call('dnsGetDNSSEC.php', { domain: SIGN_BAD })).ds, []);
    assert.equal((await c.call('dnsGetDNSSEC.php', { domain: SIGN_OK })).ds.length, 1);
    // Out of the candidates; the next signing of the good zone runs after the fault whatever the order in the pass.
    await c.call('dnsDeleteDomain.php', { domain: SIGN_BAD });
    await c.call('dnsAddA.php', { domain: SIGN_OK, name: 'api', ip: '192.0.2.2' });
    await c.call('dnsPublish.php', { domain: SIGN_OK });
    await cycle();
    assert.equal(failed('dnssec: signing failed').length, 1);

    const m = await scrape();
    const jobs = (result: string) => sample(m, `vigil_worker_thread_jobs_total{thread="sign",result="${result}"}`);
    assert.equal(jobs('workerThreadFailed'), 1);
    // prepare, sign, landed and drop for each of the good zone's two signings.
    assert.equal(jobs('ok'), 8);
    assert.equal(sample(m, 'vigil_worker_thread_job_duration_seconds_count{thread="sign"}'), 9);
    assert.equal(sample(m, 'vigil_worker_thread_starts_total{thread="sign"}'), 2);
  });
});
