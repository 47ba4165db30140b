/**
 * DNS benchmark (issue 3), side by side in one run:
 *  1. a zone of 100,000 A records: Vigil's buildZone and publish validation
 *     against `named-checkzone -i local` reading the same zone text;
 *  2. record additions per second through the HTTPS API, sequential and at
 *     concurrency 16, on a zone holding 1,000 and then 10,000 records.
 *
 *   node --import tsx bench/dns.ts [--records 100000]
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildZone, type ZoneModel } from '../src/dns/zone.ts';
import { validateZone } from '../src/dns/validate.ts';
import { testLoad } from '../src/dns/server/test-load.ts';
import { defaultSoa } from '../src/dns/records.ts';
import { startTestApp } from '../test/helpers/app.ts';
import { hasTool } from '../test/helpers/tools.ts';
import { tempDir } from '../test/helpers/server.ts';

const arg = (name: string, def: number) => Number(process.argv[process.argv.indexOf(name) + 1]) || def;
const N = arg('--records', 100_000);

function time<T>(fn: () => T): [T, number] {
  const t = performance.now();
  const out = fn();
  return [out, performance.now() - t];
}

// 1. Zone build and validation.
const zone = 'bench.example';
const model: ZoneModel = {
  zone,
  serial: 2026112301,
  records: [
    { seq: 1, type: 'SOA', data: defaultSoa(zone, 'ns.vigil.test') },
    { seq: 2, type: 'NS', data: { name: '', data: 'ns1.ns.vigil.test.' } },
    { seq: 3, type: 'NS', data: { name: '', data: 'ns2.ns.vigil.test.' } },
    ...Array.from({ length: N }, (_, i) => ({
      seq: i + 4,
      type: 'A' as const,
      data: { name: `host${i}`, data: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}` },
    })),
  ],
};
buildZone(model); // warm-up
const [text, buildMs] = time(() => buildZone(model));
const [result, validateMs] = time(() => ({ ...validateZone(model), load: testLoad(model) }));
if (result.errors.length) throw new Error(`bench zone invalid: ${result.errors[0]}`);
let checkzoneMs: number | null = null;
if (hasTool('named-checkzone')) {
  const file = join(tempDir('vigil-bench-'), 'bench.zone');
  writeFileSync(file, text);
  [, checkzoneMs] = time(() => execFileSync('named-checkzone', ['-i', 'local', zone, file], { stdio: 'ignore' }));
}
console.log(`\n| ${N} A records | ms |\n|---|---|`);
console.log(`| Vigil buildZone | ${buildMs.toFixed(0)} |`);
console.log(`| Vigil publish validation (checks + load into a test name-server index) | ${validateMs.toFixed(0)} |`);
console.log(
  `| named-checkzone -i local (same text) | ${checkzoneMs === null ? 'not installed' : checkzoneMs.toFixed(0)} |`,
);

// 2. Record adds through the API.
// Caps raised for the 100k zone below (the defaults, docs/security.md, would refuse it).
const t = await startTestApp({ domainHold: 'none', maxZoneRecords: N + 100, maxZoneBytes: 1 << 30 });
try {
  const c = t.client();
  await c.login(await t.account('bench', 'bench password', { dnsCredits: 5 }), 'bench', 'bench password');
  await c.call('dnsAddDomain.php', { domain: 'adds.example', domaintype: 'master', aup: 'YES' });
  let added = 0;
  const add = () => c.call('dnsAddA.php', { domain: 'adds.example', name: `h${added++}`, ip: '192.0.2.1' });
  const rate = async (count: number, concurrency: number) => {
    const started = performance.now();
    let left = count;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (left-- > 0) await add();
      }),
    );
    return Math.round(count / ((performance.now() - started) / 1000));
  };
  const rows: string[] = [];
  while (added < 1000) await add();
  rows.push(`| 1,000 | ${await rate(500, 1)} | ${await rate(1000, 16)} |`);
  while (added < 10_000) await Promise.all(Array.from({ length: 16 }, add));
  rows.push(`| 10,000 | ${await rate(500, 1)} | ${await rate(1000, 16)} |`);
  console.log('\n| records in zone | adds/s sequential | adds/s at concurrency 16 |\n|---|---|---|');
  rows.forEach((r) => console.log(r));

  // The same 100k zone through the API: stored rows, then dnsBuildZone and dnsPublish.
  const big = 'big.example';
  await c.call('dnsAddDomain.php', { domain: big, domaintype: 'master', aup: 'YES' });
  const db = t.app.services.db;
  const { id } = await db.selectFrom('domains').select('id').where('name', '=', big).executeTakeFirstOrThrow();
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < N; i += 1000) {
      await trx
        .insertInto('records')
        .values(
          model.records
            .slice(3 + i, 3 + i + 1000)
            .map((r) => ({ domain_id: id, type: 'A', data: JSON.stringify(r.data) })),
        )
        .execute();
    }
  });
  const timed = async (script: string) => {
    const started = performance.now();
    const reply = await c.call(script, { domain: big });
    return [reply, performance.now() - started] as const;
  };
  const [zoneReply, apiBuildMs] = await timed('dnsBuildZone.php');
  const [pubReply, apiPublishMs] = await timed('dnsPublish.php');
  if (pubReply.errors) throw new Error(`publish failed: ${pubReply.errors[0]}`);
  console.log(`\n| ${N} A records through the HTTPS API | ms |\n|---|---|`);
  console.log(
    `| dnsBuildZone.php (${Math.round(String(zoneReply.zone).length / 1e6)} MB of zone text) | ${apiBuildMs.toFixed(0)} |`,
  );
  console.log(`| dnsPublish.php (validate, test load, store the version) | ${apiPublishMs.toFixed(0)} |`);
} finally {
  await t.close();
}
