/**
 * What NSEC3 costs the name server next to NSEC (issue 28): one zone of
 * N names (default 10,000 A records), signed both ways (P-256 KSK + ZSK),
 * indexed as `serve` indexes a signed version (buildZoneIndex), then
 * answered with the DO bit as the name server answers a question its reply
 * cache does not hold yet (resolve, then the DNSSEC proofs, then the wire
 * encoding): NXDOMAIN for names never asked before (what a random-subdomain
 * flood sends), NODATA, and a positive answer. Prints per answer the best
 * time of VIGIL_BENCH_RUNS rounds (default 6) of 20,000 questions, and the
 * size of the reply. A repeated question is a copy from the reply cache
 * whichever the chain.
 * Run: node --import tsx bench/dnssec-denial.ts
 */
import dnsPacket, { type Answer } from 'dns-packet';
import { ManualClock } from '../src/clock.ts';
import { generateKey } from '../src/dns/dnssec/keys.ts';
import { encodeSigned } from '../src/dns/dnssec/wire.ts';
import { signZone } from '../src/dns/dnssec/zone.ts';
import { defaultSoa, parseRecord } from '../src/dns/records.ts';
import { withDnssec } from '../src/dns/server/dnssec-answer.ts';
import { resolve, type ZoneFinder } from '../src/dns/server/resolve.ts';
import { buildZoneIndex } from '../src/dns/server/zone-index.ts';
import type { ZoneModel } from '../src/dns/zone.ts';

const N = Number(process.env.VIGIL_BENCH_RECORDS ?? 10_000);
const RUNS = Number(process.env.VIGIL_BENCH_RUNS ?? 6);
const QUESTIONS = 20_000;
const ZONE = 'denial.bench.example';
const SIGNER = new Set(['DNSKEY', 'RRSIG', 'NSEC', 'NSEC3', 'NSEC3PARAM']);

const model: ZoneModel = {
  zone: ZONE,
  serial: 1,
  records: [
    { seq: 1, type: 'SOA', data: defaultSoa(ZONE, 'ns.vigil.test') },
    { seq: 2, type: 'NS', data: parseRecord('NS', { subdomain: '', nameserver: 'ns1.ns.vigil.test.' }, ZONE) },
    ...Array.from({ length: N }, (_, i) => ({
      seq: i + 3,
      type: 'A' as const,
      data: parseRecord('A', { name: `h${i}`, ip: `10.0.${(i >> 8) & 255}.${i & 255}` }, ZONE),
    })),
  ],
};
const clock = new ManualClock(Date.now());
const keys = [
  { key: generateKey('ksk'), sign: true },
  { key: generateKey('zsk'), sign: true },
];

console.log(`${N} names, P-256; best of ${RUNS} rounds of ${QUESTIONS} questions with DO, reply cache bypassed`);
console.log('chain | answer   | µs per answer | reply bytes');
for (const denial of ['nsec', 'nsec3'] as const) {
  const signed = signZone(ZONE, buildZoneIndex(model).all, keys, { clock, denial });
  const wire = encodeSigned(signed.records.filter((r) => SIGNER.has(r.type)));
  const index = buildZoneIndex({ ...model, dnssec: { denial, wire, refreshAt: signed.refreshAt } });
  const zones: ZoneFinder = { find: () => index, transferAllowed: () => false };
  const answer = (name: string, type: string): number => {
    const r = withDnssec(index, resolve(zones, name, type));
    return dnsPacket.encode({
      type: 'response',
      id: 1,
      flags: dnsPacket.AUTHORITATIVE_ANSWER,
      questions: [{ type: type as Answer['type'], name }],
      answers: r.answers,
      authorities: r.authorities,
    }).length;
  };
  const cases: [string, (i: number, round: number) => [string, string]][] = [
    ['NXDOMAIN', (i, round) => [`nx${round}-${i}.${ZONE}`, 'A']],
    ['NODATA', (i) => [`h${i % N}.${ZONE}`, 'TXT']],
    ['positive', (i) => [`h${i % N}.${ZONE}`, 'A']],
  ];
  for (const [what, question] of cases) {
    let best = Infinity;
    let bytes = 0;
    for (let round = 0; round < RUNS; round++) {
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < QUESTIONS; i++) bytes = answer(...question(i, round));
      best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1000 / QUESTIONS);
    }
    console.log(`${denial.padEnd(5)} | ${what.padEnd(8)} | ${best.toFixed(1).padStart(13)} | ${bytes}`);
  }
}
