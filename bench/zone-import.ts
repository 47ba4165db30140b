/**
 * Zone import next to its peers, in one run (issue 16): the same master
 * file of N records (default 2,000: the percent-encoded text must fit the
 * API's 256 KiB body) loaded
 *   - by Vigil's dnsImportZone.php (one call; every record checked as its
 *     add would, then the whole zone; one transaction), on SQLite and, with
 *     VIGIL_BENCH_DB (a PostgreSQL server URL whose role may CREATE
 *     DATABASE), on PostgreSQL;
 *   - by dnsApplyChanges.php (the same records as JSON adds, one call);
 *   - by N single dnsAdd… calls (what a client without import does);
 *   - by PowerDNS 4.7's `pdnsutil load-zone` into its SQLite backend;
 *   - by BIND's `named-checkzone` (reads and checks only, stores nothing).
 * Every server runs on loopback. Run: node --import tsx bench/zone-import.ts
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { addAccount, serve, tempDir } from '../test/helpers/server.ts';
import { freshPgDatabase, pdnsSchema } from './reads-peers.ts';

const N = Number(process.env.VIGIL_BENCH_RECORDS ?? 2000);
const ZONE = 'import.bench.example';
const PASSWORD = 'bench horse 16';

/** One record of each kind in turn; every fifth has a TTL of its own. */
function records(): { line: string; add: [string, Record<string, string>]; change: Record<string, string> }[] {
  const out: { line: string; add: [string, Record<string, string>]; change: Record<string, string> }[] = [];
  for (let i = 0; i < N; i++) {
    const ttl = i % 5 === 0 ? '300' : '';
    const t = ttl ? `\t${ttl}` : '';
    const o: Record<string, string> = ttl ? { ttl } : {};
    const ip = `192.0.${(i >> 8) & 255}.${i & 255}`;
    switch (i % 5) {
      case 0:
      case 1:
        out.push({
          line: `h${i}${t}\tIN\tA\t${ip}`,
          add: ['dnsAddA.php', { name: `h${i}`, ip, ...o }] as [string, Record<string, string>],
          change: { type: 'A', name: `h${i}`, ip, ...o },
        });
        break;
      case 2:
        out.push({
          line: `h${i}${t}\tIN\tAAAA\t2001:db8::${i.toString(16)}`,
          add: ['dnsAddAAAA.php', { name: `h${i}`, ip: `2001:db8::${i.toString(16)}`, ...o }] as [
            string,
            Record<string, string>,
          ],
          change: { type: 'AAAA', name: `h${i}`, ip: `2001:db8::${i.toString(16)}`, ...o },
        });
        break;
      case 3:
        out.push({
          line: `t${i}${t}\tIN\tTXT\t"v=spf1 ip4:${ip} -all"`,
          add: ['dnsAddTXT.php', { name: `t${i}`, txtdata: `v=spf1 ip4:${ip} -all`, ...o }] as [
            string,
            Record<string, string>,
          ],
          change: { type: 'TXT', name: `t${i}`, txtdata: `v=spf1 ip4:${ip} -all`, ...o },
        });
        break;
      default:
        out.push({
          line: `c${i}${t}\tIN\tCNAME\th${i - 1}`,
          add: ['dnsAddCNAME.php', { alias: `c${i}`, name: `h${i - 1}`, ...o }] as [string, Record<string, string>],
          change: { type: 'CNAME', alias: `c${i}`, name: `h${i - 1}`, ...o },
        });
    }
  }
  return out;
}

const recs = records();
const text = [
  `$ORIGIN ${ZONE}.`,
  '$TTL 3600',
  `@\tIN\tSOA\tns1.ns.vigil.test. hostmaster.${ZONE}. 1 10800 3600 1209600 3600`,
  ...['ns1', 'ns2', 'ns3', 'ns4'].map((n) => `@\tIN\tNS\t${n}.ns.vigil.test.`),
  ...recs.map((r) => r.line),
  '',
].join('\n');

const rows: string[][] = [];
const row = (what: string, ms: number) =>
  rows.push([what, ms.toFixed(0), Math.round((N / ms) * 1000).toLocaleString('en-US')]);
const time = async (what: string, fn: () => Promise<unknown> | unknown) => {
  const t0 = performance.now();
  await fn();
  row(what, performance.now() - t0);
  console.log(rows.at(-1)!.join('  '));
};

async function vigil(label: string, args: string[]) {
  const s = await serve({ args: ['--ns-domain', 'ns.vigil.test', ...args] });
  try {
    const c = s.client();
    await c.login(await addAccount(s.dataDir, 'bench', PASSWORD, '--dns-credits', '5', ...args), 'bench', PASSWORD);
    const domain = (n: number) => `d${n}.${ZONE}`;
    for (let n = 1; n <= 3; n++) {
      await c.call('dnsAddDomain.php', { domain: domain(n), domaintype: 'master', aup: 'YES' });
      // The text's SOA minimum: the import sets it, the other paths by hand.
      if (n > 1) await c.call('dnsSetSOA.php', { domain: domain(n), ttl: '3600' });
    }
    // Each path gets a domain of its own; the text is the same, read under the domain's own origin.
    const own = (n: number) => text.replaceAll(`${ZONE}.`, `${domain(n)}.`);
    await time(`Vigil ${label}: dnsImportZone.php, 1 call`, async () => {
      const r = await c.call('dnsImportZone.php', { domain: domain(1), zone: own(1) });
      if (r.errors.length || r.imported !== N) throw new Error(JSON.stringify(r).slice(0, 500));
    });
    await time(`Vigil ${label}: dnsApplyChanges.php, 1 call`, async () => {
      const r = await c.call('dnsApplyChanges.php', {
        domain: domain(2),
        changes: JSON.stringify(recs.map((x) => ({ action: 'add', ...x.change }))),
      });
      if (r.errors.length) throw new Error(JSON.stringify(r.errors).slice(0, 500));
    });
    await time(`Vigil ${label}: ${N} single dnsAdd… calls`, async () => {
      for (const { add } of recs) await c.call(add[0], { domain: domain(3), ...add[1] });
    });
    const built = await Promise.all(
      [1, 2, 3].map(async (n) =>
        (await c.call('dnsBuildZone.php', { domain: domain(n) })).zone.replaceAll(domain(n), 'X'),
      ),
    );
    if (built[0] !== built[1] || built[1] !== built[2]) throw new Error('the three paths built different zones');
  } finally {
    await s.stop();
  }
}

async function main() {
  const bytes = Buffer.byteLength(new URLSearchParams({ zone: text }).toString());
  console.log(`${N} records, zone text ${text.length} characters, ${bytes} bytes as a form field`);
  if (process.env.VIGIL_TEST_DB) throw new Error('unset VIGIL_TEST_DB: the bench chooses its stores');
  await vigil('SQLite', []);
  if (process.env.VIGIL_BENCH_DB) {
    const pgdb = await freshPgDatabase(process.env.VIGIL_BENCH_DB);
    try {
      await vigil('PostgreSQL', ['--db', pgdb.url]);
    } finally {
      await pgdb.drop();
    }
  }
  const dir = tempDir('vigil-bench-import-');
  const file = join(dir, 'zone');
  writeFileSync(file, text);
  const schema = pdnsSchema();
  if (schema && spawnSync('which', ['pdnsutil']).status === 0) {
    const db = new Database(join(dir, 'pdns.sqlite3'));
    db.exec(readFileSync(schema, 'utf8'));
    db.close();
    writeFileSync(join(dir, 'pdns.conf'), `launch=gsqlite3\ngsqlite3-database=${dir}/pdns.sqlite3\n`);
    await time('PowerDNS: pdnsutil load-zone (SQLite backend)', () =>
      execFileSync('pdnsutil', [`--config-dir=${dir}`, 'load-zone', ZONE, file], { stdio: 'ignore' }),
    );
  }
  if (spawnSync('which', ['named-checkzone']).status === 0) {
    await time('BIND: named-checkzone -i local (read and check only)', () =>
      execFileSync('named-checkzone', ['-i', 'local', ZONE, file], { stdio: 'ignore' }),
    );
  }
  console.log('\n| path | ms | records/s |\n|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

await main();
