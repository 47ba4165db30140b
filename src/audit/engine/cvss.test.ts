import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHECKS } from '../checks/catalogue.ts';
import { CVSS_PARTS } from '../checks/data/cvss-data.ts';
import { baseScore, baseScoreV2, cveFacts, cveRisk, knownCves, ratingOf, riskOfScore } from './cvss.ts';
import { findingFacts, nvdUrl } from './finding-facts.ts';
import type { Check } from './types.ts';

test("the library's base score equals the score NVD states, for every vector in the data", () => {
  const wrong: string[] = [];
  let n = 0;
  for (const cve of knownCves()) {
    const f = cveFacts(cve)!;
    if (f.vector) {
      n++;
      assert.match(
        f.vector,
        /^CVSS:3\.[01]\/AV:[NALP]\/AC:[LH]\/PR:[NLH]\/UI:[NR]\/S:[UC]\/C:[NLH]\/I:[NLH]\/A:[NLH]$/,
        cve,
      );
      const ours = baseScore(f.vector);
      if (ours !== f.score) wrong.push(`${cve}: ${f.vector} computes ${ours}, NVD states ${f.score}`);
    } else if (f.v2) {
      const ours = baseScoreV2(f.v2);
      if (ours !== f.v2score) wrong.push(`${cve}: v2 ${f.v2} computes ${ours}, NVD states ${f.v2score}`);
    }
  }
  assert.deepEqual(wrong, []);
  assert.ok(n > 0);
});

test('the two halves of the data agree where both name a CVE', () => {
  const seen = new Map<string, string>();
  for (const part of CVSS_PARTS) {
    for (const [cve, f] of Object.entries(part)) {
      const s = JSON.stringify([f.vector, f.score, f.v2]);
      assert.equal(seen.get(cve) ?? s, s, cve);
      seen.set(cve, s);
    }
  }
});

/**
 * CVEs whose NVD record, when read (2026-11-23, from the mirror), had no
 * CVSS metric at all ("Awaiting Analysis", `metrics: {}`): they are
 * reported without a score and keep their table row's risk. When the data
 * is read again and they have one, this list shrinks.
 */
const UNSCORED_IN_NVD = new Set([
  'CVE-2023-48795',
  'CVE-2023-51766',
  'CVE-2024-38474',
  'CVE-2024-38476',
  'CVE-2024-38477',
  'CVE-2024-42516',
]);

test('every CVE our checks name has CVSS facts (a vector, or a v2 one for old CVEs) and is not rejected', () => {
  const named = [...new Set(CHECKS.flatMap((c) => c.cves))].sort();
  const missing = named.filter((cve) => !cveFacts(cve));
  const rejected = named.filter((cve) => cveFacts(cve)?.rejected || cveFacts(cve)?.missing);
  const unscored = named.filter((cve) => {
    const f = cveFacts(cve);
    return f && !f.rejected && !f.missing && !f.vector && !f.v2 && !UNSCORED_IN_NVD.has(cve);
  });
  assert.deepEqual(
    { missing, rejected, unscored },
    { missing: [], rejected: [], unscored: [] },
    `${missing.length} of ${named.length} CVEs have no entry`,
  );
  for (const cve of UNSCORED_IN_NVD)
    assert.ok(cveFacts(cve) && !cveFacts(cve)!.vector, `${cve} has a score now: drop it from UNSCORED_IN_NVD`);
});

test('ratings (CVSS v3.1 specification, table 14) and the risk groups they map to', () => {
  const cases: [number, string, string][] = [
    [10, 'critical', 'high'],
    [9.0, 'critical', 'high'],
    [8.9, 'high', 'high'],
    [7.0, 'high', 'high'],
    [6.9, 'medium', 'medium'],
    [4.0, 'medium', 'medium'],
    [3.9, 'low', 'low'],
    [0.1, 'low', 'low'],
    [0, 'none', 'other'],
  ];
  for (const [score, rating, risk] of cases)
    assert.deepEqual([ratingOf(score), riskOfScore(score)], [rating, risk], String(score));
  assert.equal(baseScore('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'), 9.8);
  assert.equal(baseScore('CVSS:3.0/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N'), 5.9);
  assert.equal(baseScore('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N'), 0);
  assert.throws(() => baseScore('AV:N/AC:L/Au:N/C:P/I:P/A:P'));
});

const check = (over: Partial<Check>): Check => ({
  id: 'vigil.test',
  shortid: 'T',
  title: 't',
  family: 'General',
  categories: ['safe', 'passive'],
  risk: 'low',
  cves: [],
  type: 'HOLE',
  description: '',
  solution: 'Fix it.',
  references: [],
  ports: { host: true },
  runOn: async () => [],
  ...over,
});

test('findingFacts: risk from the highest score, NVD pages then advisories, the solution', () => {
  const scored = knownCves().filter((c) => cveFacts(c)!.vector);
  const hi = scored.find((c) => cveFacts(c)!.score! >= 9);
  const lo = scored.find((c) => cveFacts(c)!.score! < 7);
  assert.ok(hi && lo, 'the data has a critical and a lesser CVE');
  const c = check({ cves: [lo, hi] });
  const f = findingFacts(c, { port: 80, detail: '' });
  assert.deepEqual([f.risk, f.score, f.vector], ['high', cveFacts(hi)!.score, cveFacts(hi)!.vector]);
  assert.deepEqual(f.references.slice(0, 2), [nvdUrl(lo), nvdUrl(hi)]);
  const advisories = [...new Set([lo, hi].map((x) => cveFacts(x)!.advisory).filter(Boolean))];
  assert.deepEqual(f.references.slice(2), advisories);
  assert.equal(f.solution, 'Fix it.');
  // The finding's own CVEs and solution win; a low score lowers a declared risk.
  const g = findingFacts(c, { port: 80, detail: '', cves: [lo], risk: 'high', solution: 'Upgrade.' });
  assert.deepEqual([g.cves, g.risk, g.solution], [[lo], cveRisk(lo), 'Upgrade.']);
  // Settled as LOG (low QoD) or informational: the score does not raise it.
  assert.equal(findingFacts(c, { port: 80, detail: '', risk: 'other' }).risk, 'other');
  // No CVE, or none with data: the declared risk, no score.
  const h = findingFacts(check({ risk: 'medium' }), { port: 1, detail: '' });
  assert.deepEqual([h.risk, h.score, h.vector, h.references], ['medium', null, null, []]);
  assert.equal(
    findingFacts(check({ risk: 'medium', cves: ['CVE-1999-99999'] }), { port: 1, detail: '' }).risk,
    'medium',
  );
  // A v2-only CVE (NVD scores this 1999 configuration entry 0.0, "no impact as a software flaw") leaves the
  // declared risk.
  assert.equal(cveFacts('CVE-1999-0497')?.v2score, 0);
  const old = findingFacts(check({ risk: 'medium', cves: ['CVE-1999-0497'] }), { port: 21, detail: '' });
  assert.deepEqual([old.risk, old.score], ['medium', null]);
});
