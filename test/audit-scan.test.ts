import assert from 'node:assert/strict';
import { createServer as createHttp } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { portsFor } from '../src/audit/engine/ports.ts';
import { usualService } from '../src/audit/engine/ports.ts';
import type { VigilClient } from '../src/client/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { assertReportShape, entriesOf, finished, runAudit } from './helpers/audits.ts';
import {
  bannerServer,
  closeAll,
  expiredHttpsServer,
  httpServer,
  listenOnFirst,
  wildcardListeners,
} from './helpers/targets.ts';

const PASSWORD = 'correct horse 6';
const TARGET = '127.0.0.7';

/** Candidate ports inside the standard audit's port set, usual ones first. */
function candidates(...preferred: number[]): number[] {
  const set = new Set(portsFor('standard'));
  return [...preferred.filter((p) => set.has(p)), ...[...set].filter((p) => p > 1024 && !preferred.includes(p))];
}

describe('a real audit of loopback targets started by the test', () => {
  let t: TestApp;
  let c: VigilClient;
  const servers: ReturnType<typeof httpServer>[] = [];
  const ports: Record<string, number> = {};

  before(async () => {
    const http = httpServer();
    const https = await expiredHttpsServer();
    const ssh = bannerServer('SSH-2.0-OpenSSH_7.4');
    const ftp = bannerServer('220 (vsFTPd 2.3.4)');
    // Issue 15: an old Apache is one finding carrying its CVEs and scores, not one entry per CVE.
    const apache = createHttp((_req, res) =>
      res.writeHead(200, { server: 'Apache/2.4.49 (Unix)', 'content-type': 'text/html' }).end('<html>old</html>'),
    );
    servers.push(http, https, ssh as any, ftp as any, apache);
    ports.http = await listenOnFirst(http, TARGET, candidates(8080, 8000, 8008));
    ports.https = await listenOnFirst(https, TARGET, candidates(8443, 4443, 9443));
    ports.ssh = await listenOnFirst(ssh, TARGET, candidates(2222, 22222));
    ports.ftp = await listenOnFirst(ftp, TARGET, candidates(2121, 21, 990));
    ports.apache = await listenOnFirst(apache, TARGET, candidates(8081, 8888, 9080));
    t = await startTestApp();
    c = t.client();
    await c.login(
      await t.account('scanner', PASSWORD, { auditTypes: 'standard,basic', allowIp: `${TARGET}` }),
      'scanner',
      PASSWORD,
    );
  });
  after(async () => {
    await t?.close();
    await closeAll(servers);
  });

  test('standard audit: exactly the open ports, the services on them, and the planted weaknesses', async () => {
    const scanuid = await runAudit(c, { ipaddr: TARGET, audittype: 'standard' });
    const info = await finished(c, scanuid);
    assertReportShape(info);
    assert.equal(info.basic.reporttype, 'complete');
    const ours = new Set(Object.values(ports));
    const background = wildcardListeners();
    const found = info.ports.map((p: any) => p.portend).filter((p: number) => ours.has(p) || !background.has(p));
    assert.deepEqual(
      found.sort((x: number, y: number) => x - y),
      [...ours].sort((x, y) => x - y),
      'open ports',
    );
    for (const p of info.ports) {
      assert.equal(p.hostip, TARGET);
      assert.equal(p.portnum, '-1');
      assert.equal(p.portprot, 'TCP');
    }
    // portservice: what detection named (service, product, version), not the port's usual service.
    const service = (port: number) => info.ports.find((p: any) => p.portend === port)?.portservice;
    assert.equal(service(ports.http!), 'http');
    assert.equal(service(ports.https!), 'https');
    assert.equal(service(ports.ssh!), 'ssh OpenSSH 7.4');
    assert.match(service(ports.ftp!), /^ftp vsftpd 2\.3\.4$/i);
    assert.notEqual(service(ports.ssh!), usualService(ports.ssh!));
    const entries = entriesOf(info);
    const detected = (port: number) =>
      entries.find((e) => e.id === 'vigil.service.detection' && e.port === String(port))?.description ?? '';
    assert.match(detected(ports.http!), new RegExp(`${ports.http}/tcp: http\\b`));
    assert.match(detected(ports.https!), new RegExp(`${ports.https}/tcp: https\\b`));
    assert.match(detected(ports.ssh!), new RegExp(`${ports.ssh}/tcp: ssh \\(OpenSSH 7\\.4`));
    assert.match(detected(ports.ftp!), new RegExp(`${ports.ftp}/tcp: ftp \\(vsftpd 2\\.3\\.4`, 'i'));
    const on = (port: number) => entries.filter((e) => e.port === String(port) && e.id !== 'vigil.service.detection');
    assert.ok(
      on(ports.ftp!).some((e) => e.cve.includes('CVE-2011-2523') && e.risk === 'high' && e.type === 'HOLE'),
      'vsftpd 2.3.4 backdoor',
    );
    assert.ok(
      on(ports.ssh!).some((e) => /CVE-\d{4}-\d+/.test(e.cve)),
      'OpenSSH 7.4 CVEs',
    );
    assert.ok(
      on(ports.https!).some((e) => /expired/i.test(e.title) && e.cat === 'SSL/TLS'),
      'expired certificate',
    );
    assert.ok(
      on(ports.https!).some((e) => /self-signed/i.test(e.title)),
      'self-signed certificate',
    );
    const apache = on(ports.apache!).filter((e) => e.id === 'vigil.version.apache');
    assert.equal(apache.length, 1, 'one Apache finding');
    assert.ok(
      ['CVE-2021-41773', 'CVE-2021-42013'].every((cve) => apache[0].cve.split(',').includes(cve)),
      apache[0].cve,
    );
    assert.equal(apache[0].risk, 'high');
    assert.match(
      apache[0].description,
      /^Score: CVSS 9\.8 \(CVSS:3\.1\/AV:N\/AC:L\/PR:N\/UI:N\/S:U\/C:H\/I:H\/A:H\)$/m,
    );
    assert.match(apache[0].description, /^Solution: \S/m);
    assert.match(apache[0].description, /^References: https:\/\/nvd\.nist\.gov\/vuln\/detail\/CVE-/m);
    assert.equal(service(ports.apache!), 'http Apache httpd 2.4.49');
    // Within a risk group: by score, highest first, then port; numbered in that order.
    const score = (e: any) => Number(/^Score: CVSS ([\d.]+)/m.exec(e.description)?.[1] ?? -1);
    for (const group of Object.values(info.entries) as Record<string, any>[]) {
      const list = Object.values(group).sort((a: any, b: any) => a.shortkey - b.shortkey);
      for (let i = 1; i < list.length; i++) {
        const [a, b] = [list[i - 1], list[i]];
        assert.ok(
          score(a) > score(b) || (score(a) === score(b) && Number(a.port) <= Number(b.port)),
          `${a.entrykey} before ${b.entrykey}`,
        );
      }
    }
    assert.equal(info.entries.high[`${scanuid}_1`]?.description.match(/^Score: CVSS ([\d.]+)/m)?.[1], '9.8');
    for (const e of entries) assert.equal(e.baseline, 'new', 'first audit of the address: everything is new');
  });

  test('a second audit: baseline unchanged, and what went away is reported resolved', async () => {
    await closeAll([servers[3]!]);
    const scanuid = await runAudit(c, { ipaddr: TARGET, audittype: 'standard' });
    const info = await finished(c, scanuid);
    const entries = entriesOf(info);
    assert.ok(entries.filter((e) => e.port === String(ports.http)).every((e) => e.baseline === 'unchanged'));
    const resolved = entries.find((e) => e.baseline === 'resolved');
    assert.ok(resolved, 'a resolved entry');
    assert.match(resolved.description, new RegExp(`on port ${ports.ftp}`));
    assert.ok(!info.ports.some((p: any) => p.portend === ports.ftp));
  });
});
