import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cveScore } from '../../engine/cvss.ts';
import { findingFacts } from '../../engine/finding-facts.ts';
import type { Net, Service } from '../../engine/types.ts';
import { compareVersions, inRange, parseRanges } from './lib/version-compare.ts';
import { upgradeTarget } from './lib/version-finding.ts';
import bindVersion from '../dns/bind-version.ts';
import outdatedProducts from './outdated-products.ts';
import { VERSION_TABLE } from '../data/version-table.ts';

const VERSION_CHECKS = [...outdatedProducts, bindVersion];

const svc = (over: Partial<Service>): Service => ({
  port: 80,
  protocol: 'tcp',
  name: 'http',
  product: null,
  version: null,
  banner: null,
  tls: null,
  http: null,
  extra: {},
  ...over,
});
const noNet = null as unknown as Net;
const table = (p: string) => VERSION_TABLE.find((t) => t.product === p)!;

/** Every version finding for one host, as [check, finding]. */
async function findings(services: Service[]) {
  const out = [];
  for (const c of VERSION_CHECKS.filter((c) => c.categories.includes('passive'))) {
    for (const f of await c.runOn({ address: '127.0.0.1', openPorts: services.map((s) => s.port), services }, noNet))
      out.push({ c, f });
  }
  return out;
}

test('an old Apache with PHP: one finding per product per port, every CVE in it, sorted by score', async () => {
  const web = svc({
    http: { status: 200, headers: { server: 'Apache/2.4.49 (Unix)', 'x-powered-by': 'PHP/7.3.10' }, body: '' },
  });
  const found = await findings([web, { ...web, port: 8080 }]);
  assert.deepEqual(found.map(({ c, f }) => `${c.id}:${f.port}`).sort(), [
    'vigil.version.apache:80',
    'vigil.version.apache:8080',
    'vigil.version.php:80',
    'vigil.version.php:8080',
  ]);
  const { c, f } = found.find(({ c, f }) => c.id === 'vigil.version.apache' && f.port === 80)!;
  const affected = table('apache')
    .rows.filter((r) => inRange('2.4.49', parseRanges(r.affected)))
    .flatMap((r) => r.cve.split(' '));
  assert.deepEqual([...f.cves!].sort(), affected.sort());
  assert.ok(
    f.cves!.includes('CVE-2021-41773') && f.cves!.includes('CVE-2021-42013') && !f.cves!.includes('CVE-2021-40438'),
  );
  const critical = f.cves!.filter((x) => (cveScore(x)?.score ?? 0) >= 9).length;
  assert.ok(critical > 0);
  assert.equal(
    f.title,
    `Apache httpd 2.4.49 is outdated: ${f.cves!.length} known vulnerabilities, ${critical} critical`,
  );
  // One detail line per CVE, highest score first, unscored last.
  const lines = f.detail.split('\n').filter((l) => /^CVE-/.test(l));
  assert.equal(lines.length, f.cves!.length);
  const scores = lines.map((l) => cveScore(l.split(' ')[0]!)?.score ?? -1);
  assert.deepEqual(
    scores,
    [...scores].sort((a, b) => b - a),
  );
  assert.deepEqual(
    f.cves,
    lines.map((l) => l.split(' ')[0]),
  );
  assert.equal(f.solution, `Upgrade Apache httpd to ${upgradeTarget(table('apache'), '2.4.49')} or later.`);
  // The facts a report shows: scored when the data has the CVE, the NVD page of each, the advisories after.
  const facts = findingFacts(c, f);
  assert.equal(facts.cves.length, f.cves!.length);
  assert.equal(
    facts.references.slice(0, f.cves!.length).join(' '),
    f.cves!.map((x) => `https://nvd.nist.gov/vuln/detail/${x}`).join(' '),
  );
  assert.equal(new Set(facts.references).size, facts.references.length);
  const top = f
    .cves!.map((x) => cveScore(x))
    .filter((s) => s !== null)
    .sort((a, b) => b.score - a.score)[0];
  assert.equal(facts.score, top?.score ?? null);
  if (top && top.score >= 7) assert.equal(facts.risk, 'high');
});

test('upgrade target: past every range of the table, across regressions', () => {
  const apache = table('apache');
  // 2.4.60 fixed most of 2.4.49's CVEs but is itself affected (CVE-2024-39884): the target moves on past it.
  const t = upgradeTarget(apache, '2.4.49')!;
  assert.ok(compareVersions(t, '2.4.61') >= 0, t);
  assert.equal(upgradeTarget(apache, '2.4.99'), null);
  // For every range start of every table, the target is outside every row of that table.
  for (const tbl of VERSION_TABLE) {
    for (const row of tbl.rows) {
      for (const r of parseRanges(row.affected)) {
        const to = upgradeTarget(tbl, r.from ?? r.fixed.replace(/\d+$/, '0'));
        if (!to) continue;
        for (const other of tbl.rows)
          assert.ok(
            !inRange(to, parseRanges(other.affected)),
            `${tbl.product} ${r.from} -> ${to} still in ${other.cve}`,
          );
      }
    }
  }
});

test('IIS: the version names a Windows release, so the fix is the security update, not an IIS number', async () => {
  const f = (await findings([svc({ http: { status: 200, headers: { server: 'Microsoft-IIS/6.0' }, body: '' } })]))[0]
    ?.f;
  assert.match(f!.solution!, /Microsoft security updates/);
  assert.match(f!.detail, /patch level/);
});

test('a fully patched distribution package gives nothing; a version out of every range gives nothing', async () => {
  assert.deepEqual(
    await findings([svc({ http: { status: 200, headers: { server: 'Apache/2.4.99' }, body: '' } })]),
    [],
  );
  const patched = await findings([svc({ port: 22, name: 'ssh', banner: 'SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u10' })]);
  assert.ok(
    patched.every(({ f }) => (f.qod ?? 80) < 70),
    JSON.stringify(patched.map(({ f }) => f.title)),
  );
});
