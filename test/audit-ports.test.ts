// saRunAudit's `ports` (INTERFACE.md "Audits: ports and schedules"): the
// list replaces the type's ports, the checks stay the type's, a bad list
// is syntaxInvalidPorts; and the per-account queue limit. Real audits of
// loopback daemons on ports no audit type scans by default (the newcomer
// of issue 31 put services on 18040, 18101 and 18988).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { VigilClient } from '../src/client/index.ts';
import { portsFor } from '../src/audit/engine/ports.ts';
import { parsePorts } from '../src/audit/port-list.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { auditList, code, entriesOf, finished, runAudit } from './helpers/audits.ts';
import { bannerServer, closeAll, listenOnFirst, wildcardListeners } from './helpers/targets.ts';

const PASSWORD = 'correct horse 31';
const TARGET = '127.0.31.1';

/** Ports out of every type's list but advanced's, free on the target and as wildcards. */
function unusualPorts(n: number): number[] {
  const taken = wildcardListeners();
  const listed = new Set([...portsFor('norisk'), ...portsFor('desktop')]);
  const out: number[] = [];
  for (const p of [18040, 18101, 18988, 19040, 19101, 19988, 23040, 23101]) {
    if (!listed.has(p) && !taken.has(p)) out.push(p);
    if (out.length === n) break;
  }
  return out;
}

test('parsePorts: ranges, repeats counted, every bad form refused', () => {
  assert.deepEqual(parsePorts('22,80,443,8000-8002'), [22, 80, 443, 8000, 8001, 8002]);
  assert.deepEqual(parsePorts(' 80 , 22,22 '), [22, 80]);
  assert.equal(parsePorts('1-65535')!.length, 65_535);
  assert.deepEqual(parsePorts('7-7'), [7]);
  for (const bad of [
    '',
    ',',
    '22,,80',
    '22,',
    ',22',
    '80-22',
    '0',
    '0-10',
    '65536',
    '1-65536',
    '-22',
    '22-',
    'ssh',
    '2 2',
    '+22',
    '1e3',
    '22-80-90',
    '0x16',
  ])
    assert.equal(parsePorts(bad), null, JSON.stringify(bad));
  // At most 65,535 in all, counting repeats: the whole range and one port more is one too many.
  assert.equal(parsePorts('1-65535,80'), null);
  assert.equal(parsePorts('1-40000,1-25535')!.length, 40_000);
  assert.equal(parsePorts('1-40000,1-25536'), null);
  // An operator's lower bound (--audit-max-ports).
  assert.equal(parsePorts('1-100', 100)!.length, 100);
  assert.equal(parsePorts('1-100,5', 100), null);
});

describe('saRunAudit ports: the list replaces the type’s ports, not its checks', () => {
  let t: TestApp;
  let c: VigilClient;
  const servers: ReturnType<typeof bannerServer>[] = [];
  let ports: number[];

  before(async () => {
    ports = unusualPorts(3);
    assert.equal(ports.length, 3, 'three free unusual ports');
    t = await startTestApp({ auditMaxPorts: 1000 });
    c = t.client();
    await c.login(
      await t.account('ports', PASSWORD, { auditTypes: 'basic,norisk', allowIp: '127.0.31.0/24' }),
      'ports',
      PASSWORD,
    );
    // OpenSSH 7.4 answers on the first of them: the basic audit's version table has CVEs for it.
    const ssh = bannerServer('SSH-2.0-OpenSSH_7.4');
    servers.push(ssh);
    await listenOnFirst(ssh, TARGET, [ports[0]!]);
  });
  after(async () => {
    await closeAll(servers);
    await t.close();
  });

  test('a bad list answers syntaxInvalidPorts and stores nothing; the server’s bound is the flag', async () => {
    const cases = ['', '22,,80', '22,', '80-22', '0', '65536', '1-65535,80', 'http', '1-1001', '1-1000,7'];
    for (const ports of cases)
      assert.equal(
        await code(c, 'saRunAudit.php', { ipaddr: TARGET, audittype: 'basic', ports }),
        'syntaxInvalidPorts',
        ports,
      );
    // The request's other checks come first: the type, the entitlement, the addresses.
    assert.equal(await code(c, 'saRunAudit.php', { ipaddr: TARGET, ports: '0' }), 'missingAuditType');
    assert.equal(await code(c, 'saRunAudit.php', { ipaddr: TARGET, audittype: 'standard', ports: '0' }), 'notEntitled');
    assert.equal(
      await code(c, 'saRunAudit.php', { ipaddr: '127.0.32.1', audittype: 'basic', ports: '0' }),
      'IPPermissionsProblem',
    );
    assert.deepEqual(await auditList(c), []);
  });

  test('the audit scans exactly the ports asked for, finds the service there, and says so in what ran', async () => {
    const asked = `${ports[2]},${ports[0]}, ${ports[1]},${ports[0]}`;
    const scanuid = await runAudit(c, { ipaddr: TARGET, audittype: 'basic', ports: asked });
    const queued = (await auditList(c)).find((s) => s.scanuid === scanuid) as any;
    if (queued.progress) assert.equal(queued.progress.portsTotal, 3);
    const info = await finished(c, scanuid);
    const sorted = [...ports].sort((a, b) => a - b);
    assert.equal(info.basic.reporttype, 'complete');
    assert.equal(info.basic.portsScanned, 3);
    assert.equal(info.basic.scanportstcp, sorted.join(','));
    assert.match(info.basic.summary, /^basic audit of 127\.0\.31\.1: 3 TCP ports scanned on 1 address \(1 open\)/);
    assert.deepEqual(
      info.ports.map((p: any) => p.portend),
      [ports[0]],
    );
    assert.match(info.ports[0].portservice, /ssh OpenSSH 7\.4/);
    // The type's checks ran: basic's passive version table names OpenSSH 7.4's CVEs on that port.
    const onPort = entriesOf(info).filter((e) => e.port === String(ports[0]) && e.id !== 'vigil.service.detection');
    assert.ok(
      onPort.some((e) => e.cve.includes('CVE-')),
      JSON.stringify(onPort.map((e) => e.id)),
    );
    assert.equal(info.basic.checksRun, info.basic.totalnaslentries);
  });

  test('without ports the type’s own list: the unusual port is not scanned', async () => {
    const info = await finished(c, await runAudit(c, { ipaddr: TARGET, audittype: 'basic' }));
    assert.equal(info.basic.portsScanned, portsFor('basic').length);
    assert.deepEqual(info.ports, []);
  });
});

describe('--audit-queue-limit: audits one account may have queued or running', () => {
  test('past the limit saRunAudit answers auditQueueFull, requests fired at once included; other accounts do not count', async () => {
    // No audit workers: what is queued stays queued.
    const t = await startTestApp({ auditWorkers: 0, auditQueueLimit: 3 });
    try {
      const [a, b] = [t.client(), t.client()];
      await a.login(await t.account('qa', PASSWORD, { auditTypes: 'basic', allowIp: '127.0.31.0/24' }), 'qa', PASSWORD);
      await b.login(await t.account('qb', PASSWORD, { auditTypes: 'basic', allowIp: '127.0.31.0/24' }), 'qb', PASSWORD);
      for (let i = 0; i < 3; i++)
        assert.equal(await code(a, 'saRunAudit.php', { ipaddr: TARGET, audittype: 'basic' }), 'ok');
      assert.equal(await code(a, 'saRunAudit.php', { ipaddr: TARGET, audittype: 'basic' }), 'auditQueueFull');
      assert.equal(await code(b, 'saRunAudit.php', { ipaddr: TARGET, audittype: 'basic' }), 'ok');
      assert.equal((await auditList(a)).length, 3);
      // Fired all at once, as issue 31's 200 in 0.4 s: still at most the limit.
      const burst = await Promise.all(
        Array.from({ length: 10 }, () => code(b, 'saRunAudit.php', { ipaddr: TARGET, audittype: 'basic' })),
      );
      assert.equal(burst.filter((r) => r === 'ok').length, 2);
      assert.equal(burst.filter((r) => r === 'auditQueueFull').length, 8);
      assert.equal((await auditList(b)).length, 3);
    } finally {
      await t.close();
    }
  });
});
