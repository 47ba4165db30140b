import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { CycleLoop } from '../src/dns/cycle-loop.ts';
import { distributionCycle } from '../src/dns/distribute.ts';
import { startTestApp } from './helpers/app.ts';
import { udpQuery } from './helpers/dns-client.ts';
import { addAccount, admin, adminJson, freePort, serve, tempDir, VIGIL } from './helpers/server.ts';
import { eventually } from './helpers/wait.ts';

const run = promisify(execFile);
const PASSWORD = 'correct horse 5';
const READABLE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/;

/** One sample of the Prometheus text, e.g. value(text, 'vigil_api_requests_total{script="auth.php",code="0"}'). */
function value(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}

describe('admin never creates a store', () => {
  test('pointed at a data directory without vigil.sqlite it exits non-zero, names the path and leaves no file', async () => {
    const data = tempDir();
    for (const args of [['account', 'list'], ['throttle', 'list'], ['domain', 'list'], ['distribute']]) {
      const err = await run(VIGIL, ['admin', ...args, '--data', data], {
        env: { ...process.env, VIGIL_DB: '', VIGIL_DATA: '' },
      }).then(
        () => assert.fail(`admin ${args.join(' ')} succeeded`),
        (e: any) => e,
      );
      assert.notEqual(err.code, 0);
      assert.ok(err.stderr.includes(join(data, 'vigil.sqlite')), err.stderr);
      assert.equal(existsSync(join(data, 'vigil.sqlite')), false);
    }
  });
});

describe('when is my change live: the schedule on the injected clock', () => {
  test('publish and the domain list say the next cycle; the list says the served serial once distributed', async () => {
    const t = await startTestApp({ domainHold: 'none', publishIntervalMs: 5 * 60_000 });
    try {
      const c = t.client();
      await c.login(await t.account('live', PASSWORD, { dnsCredits: 2 }), 'live', PASSWORD);
      await c.call('dnsAddDomain.php', { domain: 'live.example', domaintype: 'master', aup: 'YES' });
      let list = await c.call('dnsGetDomainList.php', {});
      const seq = Object.keys(list.domains)[0]!;
      assert.equal(list.domains[seq].servedSerial, null);
      // The test app starts at 2026-11-23 12:00 UTC: the first cycle is 5 minutes later.
      assert.equal(list.nextDistribution, '2026-11-23 12:05:00 UTC');
      const pub = await c.call('dnsPublish.php', { domain: 'live.example' });
      assert.equal(pub.errors, undefined);
      assert.equal(pub.nextDistribution, '2026-11-23 12:05:00 UTC');
      t.clock.advance(7 * 60_000);
      assert.equal((await c.call('dnsGetDomainList.php', {})).nextDistribution, '2026-11-23 12:10:00 UTC');
      // As `admin distribute` does from another process: the poll reloads once, not again.
      const before = t.app.serving.generation;
      await distributionCycle(t.app.services.db, t.clock);
      await eventually(async () => t.app.serving.generation === before + 1, 'serving set reloaded by the poll', 5000);
      // The polls after it, run here rather than waited for (was: a fixed 2.2 s, two polls' worth, which a
      // loaded machine could stretch past without a poll having run): each finds nothing new.
      const loop = t.app.services.dns.schedule as CycleLoop;
      await loop.refresh(true);
      await loop.refresh(true);
      assert.equal(t.app.serving.generation, before + 1, 'reloaded once, not on every poll');
      list = await c.call('dnsGetDomainList.php', {});
      assert.equal(list.domains[seq].servedSerial, 2026112301);
      // A publish alone changes nothing served: no reload.
      await c.call('dnsPublish.php', { domain: 'live.example' });
      await loop.refresh(true);
      assert.equal(t.app.serving.generation, before + 1);
    } finally {
      await t.close();
    }
  });
});

describe('bin/vigil serve --metrics-port, admin distribute and admin domain list', () => {
  test('a change is live after admin distribute; /metrics counts the traffic; /healthz answers', async () => {
    const [dnsPort, metricsPort] = [await freePort(), await freePort()];
    const s = await serve({
      // Zone names are opt-in (issue 28): this test reads a zone's served serial.
      args: [
        ...['--dns-port', String(dnsPort), '--metrics-port', String(metricsPort), '--publish-interval', '1h'],
        '--metrics-zone-names',
      ],
      env: { VIGIL_LOG_LEVEL: 'info' },
    });
    try {
      assert.match(s.readyLine, new RegExp(` metrics=127\\.0\\.0\\.1:${metricsPort}$`));
      const key = await addAccount(s.dataDir, 'ops', PASSWORD, '--dns-credits', '3');
      const c = s.client();
      await assert.rejects(c.login(key, 'ops', 'wrong password'));
      await c.login(key, 'ops', PASSWORD);
      for (const domain of ['now.example', 'held.example'])
        await c.call('dnsAddDomain.php', { domain, domaintype: 'master', aup: 'YES' });
      await admin(s.dataDir, 'domain', 'release', 'now.example');
      const held = await adminJson(s.dataDir, 'domain', 'list', '--held');
      assert.deepEqual(
        held.map((d: any) => d.domain),
        ['held.example'],
      );
      await c.call('dnsAddA.php', { domain: 'now.example', name: 'www', ip: '192.0.2.44' });
      const pub = await c.call('dnsPublish.php', { domain: 'now.example' });
      assert.equal(pub.errors, undefined);
      assert.match(pub.nextDistribution, READABLE);
      assert.equal((await udpQuery(dnsPort, 'www.now.example', 'A')).rcode, 'REFUSED', 'not served before a cycle');

      const cycle = await adminJson(s.dataDir, 'distribute');
      assert.deepEqual(cycle.distributed, ['now.example']);
      await eventually(
        async () => (await udpQuery(dnsPort, 'www.now.example', 'A')).answers?.[0]?.data === '192.0.2.44',
        'served within about a second',
        5000,
      );

      const all = await adminJson(s.dataDir, 'domain', 'list');
      const now = all.find((d: any) => d.domain === 'now.example');
      assert.deepEqual(
        { ...now, servedSerial: typeof now.servedSerial },
        {
          domain: 'now.example',
          account: 'ops',
          type: 'master',
          state: 3,
          stateText: 'Active',
          hold: false,
          servedSerial: 'number',
        },
      );
      assert.equal(all.find((d: any) => d.domain === 'held.example').servedSerial, null);
      // The log says when the serial went live.
      const nowServing = () =>
        s
          .stderr()
          .split('\n')
          .flatMap((l) => {
            try {
              return [JSON.parse(l)];
            } catch {
              return [];
            }
          })
          .find((l) => l.msg === 'dns: now serving' && l.served?.['now.example']);
      await eventually(async () => !!nowServing(), 'the now-serving log line', 5000);
      assert.equal(nowServing().served['now.example'], now.servedSerial);
      const text = (await admin(s.dataDir, 'domain', 'list')).stdout;
      assert.match(text, /now\.example +account ops +master +Active +released +served \d{10}/);
      const list = await c.call('dnsGetDomainList.php', {});
      const served = Object.values(list.domains as Record<string, any>).find((d) => d.domain === 'now.example');
      assert.equal(served.servedSerial, now.servedSerial);

      const health = await fetch(`http://127.0.0.1:${metricsPort}/healthz`);
      assert.equal(health.status, 200);
      assert.equal((await health.text()).trim(), 'ok');
      // The console's page is not an API call: it must not show up as one (script="unknown").
      assert.equal((await c.raw('GET', '/', '', { 'content-type': '', 'content-length': '' })).http, 200);
      const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      assert.equal(scrape.status, 200);
      assert.match(scrape.headers.get('content-type') ?? '', /^text\/plain/);
      const m = await scrape.text();
      assert.equal(value(m, 'vigil_api_requests_total{script="dnsPublish.php",code="0"}'), 1);
      assert.equal(value(m, 'vigil_api_requests_total{script="auth.php",code="invalidLogin"}'), 1);
      assert.ok(!m.includes('script="unknown"'), 'no API series for the console page');
      assert.equal(value(m, 'vigil_logins_refused_total{outcome="failed"}'), 1);
      assert.ok(value(m, 'vigil_api_request_duration_seconds_count{script="dnsPublish.php"}')! >= 1);
      assert.ok(value(m, 'vigil_dns_responses_total{transport="udp",rcode="REFUSED"}')! >= 1, m);
      assert.ok(value(m, 'vigil_dns_responses_total{transport="udp",rcode="NOERROR"}')! >= 1);
      assert.ok(value(m, 'vigil_distribution_next_cycle_timestamp_seconds')! > Date.now() / 1000 + 3000);
      assert.equal(value(m, 'vigil_audits{state="queued"}'), 0);
      assert.equal(
        value(m, 'vigil_zone_served_serial{zone="now.example"}'),
        now.servedSerial,
        'the serial a resolver now gets',
      );
      assert.equal(value(m, 'vigil_zone_served_serial{zone="held.example"}'), null, 'not served');
      assert.ok(value(m, 'vigil_process_resident_memory_bytes')! > 0);
      for (const name of [
        'vigil_distribution_cycles_total',
        'vigil_dns_notify_total',
        'vigil_dns_slave_transfers_total',
        'vigil_dns_zone_transfers_total',
      ]) {
        assert.ok(m.includes(`# TYPE ${name} counter`), name);
      }
      assert.equal((await fetch(`http://127.0.0.1:${metricsPort}/other`)).status, 404);

      // Event lines: the publish with its facts, the reload the poll found; never a password.
      const logs = s
        .stderr()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      const publish = logs.find((l) => l.msg === 'publish' && l.outcome === 'ok');
      assert.equal(publish.userid, 'ops');
      assert.equal(publish.domain, 'now.example');
      assert.equal(publish.serial, now.servedSerial);
      assert.ok(logs.some((l) => l.msg === 'dns: serving set reloaded (changed in the store)'));
      const failed = logs.find((l) => l.msg === 'login failed');
      assert.equal(failed.userid, 'ops');
      assert.ok(!s.stderr().includes('wrong password') && !s.stderr().includes(PASSWORD));
    } finally {
      await s.stop();
    }
  });
});
