/**
 * Zone signing next to its peers, in one run (issue 19): the same zone of
 * N records (default 10,000 and 100,000: A, AAAA, TXT, MX and CNAME in
 * turn, one owner each) signed with ECDSA P-256, a KSK and a ZSK, NSEC
 *   - by Vigil's signZone (in-process, one thread; also with Ed25519 and
 *     with NSEC3), and writing the signed zone as master-file text; and
 *     re-signing after one changed record with the previous signatures
 *     (what a publish after an edit costs);
 *   - by BIND 9.18's `dnssec-signzone` (one thread, `-n 1`, and its default
 *     of one per CPU), keys from dnssec-keygen;
 *   - by Knot 3.2's `kzonesign` (signing-threads 1), keys from its KASP.
 * Each figure is the best of VIGIL_BENCH_RUNS (default 3; one run above
 * 50,000 records). Tools' times include their process start and zone parse. Vigil's output
 * is checked with kzonecheck so a fast wrong signer cannot win.
 * Run: node --import tsx bench/dnssec-sign.ts
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Answer } from 'dns-packet';
import { ManualClock } from '../src/clock.ts';
import { knotCheck } from '../src/dns/dnssec/fixture.ts';
import { generateKey, type Algorithm } from '../src/dns/dnssec/keys.ts';
import { masterFile } from '../src/dns/dnssec/present.ts';
import { signZone, type SignedZone } from '../src/dns/dnssec/zone.ts';

const SIZES = (process.env.VIGIL_BENCH_RECORDS ?? '10000,100000').split(',').map(Number);
const RUNS = Number(process.env.VIGIL_BENCH_RUNS ?? 3);
const ZONE = 'sign.bench.example';
const have = (bin: string) => spawnSync('which', [bin]).status === 0;

function zone(n: number): Answer[] {
  const out: Answer[] = [
    {
      type: 'SOA',
      name: ZONE,
      ttl: 3600,
      class: 'IN',
      data: {
        mname: 'ns1.ns.vigil.test',
        rname: `hostmaster.${ZONE}`,
        serial: 1,
        refresh: 10800,
        retry: 3600,
        expire: 1209600,
        minimum: 3600,
      },
    },
    { type: 'NS', name: ZONE, ttl: 3600, class: 'IN', data: 'ns1.ns.vigil.test' },
    { type: 'NS', name: ZONE, ttl: 3600, class: 'IN', data: 'ns2.ns.vigil.test' },
  ];
  for (let i = 0; i < n; i++) {
    const name = `h${i}.${ZONE}`;
    const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    switch (i % 5) {
      case 0:
        out.push({ type: 'A', name, ttl: 3600, class: 'IN', data: ip });
        break;
      case 1:
        out.push({
          type: 'AAAA',
          name,
          ttl: 3600,
          class: 'IN',
          data: `2001:db8::${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}`,
        });
        break;
      case 2:
        out.push({ type: 'TXT', name, ttl: 3600, class: 'IN', data: [Buffer.from(`v=spf1 ip4:${ip} -all`)] });
        break;
      case 3:
        out.push({ type: 'MX', name, ttl: 3600, class: 'IN', data: { preference: 10, exchange: `h${i - 3}.${ZONE}` } });
        break;
      default:
        out.push({ type: 'CNAME', name, ttl: 3600, class: 'IN', data: `h${i - 4}.${ZONE}` });
    }
  }
  return out;
}

/** Best of RUNS; one run above 50,000 records (a 100k signing is tens of seconds, steady enough). */
function best(n: number, fn: () => void): number {
  let min = Infinity;
  for (let r = 0; r < (n > 50_000 ? 1 : RUNS); r++) {
    const t0 = process.hrtime.bigint();
    fn();
    min = Math.min(min, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return min;
}

const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-sign-'));
const rows: string[][] = [];
try {
  for (const n of SIZES) {
    const records = zone(n);
    const text = masterFile(records);
    const file = join(dir, `${ZONE}.zone`);
    writeFileSync(file, text);
    const clock = new ManualClock(Date.now());
    for (const alg of [13, 15] as Algorithm[]) {
      const keys = [
        { key: generateKey('ksk', alg), sign: true },
        { key: generateKey('zsk', alg), sign: true },
      ];
      let result: SignedZone | null = null;
      const sign = best(n, () => void (result = signZone(ZONE, records, keys, { clock })));
      const signed = result!.records;
      let out = '';
      const write = best(1, () => void (out = masterFile(signed)));
      rows.push([String(n), `Vigil signZone, alg ${alg}`, fmt(sign), fmt(sign + write)]);
      if (alg === 13) {
        // What a publish after one edit costs: one address changed, the previous signatures passed in.
        const edited = records.map((r, i) => (i === 3 ? { ...r, data: '10.255.255.254' } : r)) as Answer[];
        const previous = result!.signatures;
        rows.push([
          String(n),
          'Vigil re-sign after one change (reuse)',
          fmt(best(n, () => void signZone(ZONE, edited, keys, { clock, previous }))),
          '',
        ]);
        rows.push([
          String(n),
          'Vigil signZone, alg 13, NSEC3',
          fmt(best(n, () => void signZone(ZONE, records, keys, { clock, denial: 'nsec3' }))),
          '',
        ]);
      }
      if (alg === 13 && have('kzonecheck')) {
        const v = knotCheck(ZONE, out, Math.floor(clock.now() / 1000));
        if (!v.ok) {
          writeFileSync(join(tmpdir(), 'vigil-bench-refused.zone'), out);
          throw new Error(
            `kzonecheck refused Vigil's signed zone (kept in ${tmpdir()}/vigil-bench-refused.zone): ${v.output.slice(0, 500)}`,
          );
        }
      }
    }
    if (have('dnssec-signzone')) {
      const kdir = join(dir, `bind-${n}`);
      mkdirSync(kdir);
      execFileSync('dnssec-keygen', ['-q', '-K', kdir, '-a', 'ECDSAP256SHA256', '-f', 'KSK', ZONE]);
      execFileSync('dnssec-keygen', ['-q', '-K', kdir, '-a', 'ECDSAP256SHA256', ZONE]);
      for (const threads of ['1', '']) {
        const args = [
          '-q',
          '-S',
          '-K',
          kdir,
          '-d',
          kdir,
          '-o',
          ZONE,
          '-f',
          join(dir, 'bind.out'),
          '-N',
          'keep',
          ...(threads ? ['-n', threads] : []),
          file,
        ];
        rows.push([
          String(n),
          `BIND dnssec-signzone${threads ? ' -n 1' : ' (2 threads)'}`,
          fmt(best(n, () => void execFileSync('dnssec-signzone', args))),
          '(included)',
        ]);
      }
    }
    if (have('kzonesign')) {
      const kdir = join(dir, `knot-${n}`);
      mkdirSync(join(kdir, 'out'), { recursive: true });
      writeFileSync(join(kdir, `${ZONE}.zone`), text);
      const conf = join(kdir, 'knot.conf');
      writeFileSync(
        conf,
        [
          'template:',
          '  - id: default',
          `    storage: ${kdir}`,
          `    kasp-db: ${join(kdir, 'kasp')}`,
          'policy:',
          '  - id: p',
          '    algorithm: ecdsap256sha256',
          '    signing-threads: 1',
          'zone:',
          `  - domain: ${ZONE}`,
          `    file: ${ZONE}.zone`,
          '    dnssec-signing: on',
          '    dnssec-policy: p',
          '',
        ].join('\n'),
      );
      execFileSync('kzonesign', ['-c', conf, '-o', join(kdir, 'out'), ZONE], { stdio: 'ignore' }); // makes the keys once (and says it had none)
      rows.push([
        String(n),
        'Knot kzonesign (1 thread)',
        fmt(best(n, () => void execFileSync('kzonesign', ['-c', conf, '-o', join(kdir, 'out'), ZONE]))),
        '(included)',
      ]);
      if (!readdirSync(join(kdir, 'out')).length) throw new Error('kzonesign wrote nothing');
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log('| records | signer | sign | sign + write text |');
console.log('|---|---|---|---|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
