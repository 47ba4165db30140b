import { createHash } from 'node:crypto';
import { nameWire } from '../dnssec/canonical.ts';
import { dnskeyRdata } from '../dnssec/keys.ts';
import type { HealthContext } from './context.ts';
import type { HealthCheck, Hit } from './types.ts';
import { answersOf } from './world.ts';
import { rdata } from './wire.ts';

interface Ds {
  keyTag: number;
  algorithm: number;
  digestType: number;
  digest: Buffer;
}
interface Dnskey {
  flags: number;
  algorithm: number;
  key: Buffer;
}
interface Rrsig {
  typeCovered: string;
  expiration: number;
  keyTag: number;
}

/** RFC 4034 §5.1.4 (SHA-1), RFC 4509 (SHA-256), RFC 6605 (SHA-384). */
const DIGESTS: Record<number, string> = { 1: 'sha1', 2: 'sha256', 4: 'sha384' };

/** The DS set at the parent and the zone's DNSKEY set, NSEC3PARAM and apex signatures, as the world has them. */
function chain(ctx: HealthContext) {
  return ctx.once('dnssec', async () => {
    const w = ctx.world!;
    const [ds, keys, soa, param] = await Promise.all([
      w.resolve(ctx.zone, 'DS', true),
      w.resolve(ctx.zone, 'DNSKEY', true),
      w.resolve(ctx.zone, 'SOA', true),
      w.resolve(ctx.zone, 'NSEC3PARAM', true),
    ]);
    return {
      answered: ds !== null && keys !== null,
      ds: answersOf(ds, ctx.zone, 'DS').map((a) => rdata<Ds>(a)),
      dnskey: answersOf(keys, ctx.zone, 'DNSKEY').map((a) => rdata<Dnskey>(a)),
      rrsig: [...answersOf(keys, ctx.zone, 'RRSIG'), ...answersOf(soa, ctx.zone, 'RRSIG')].map((a) => rdata<Rrsig>(a)),
      nsec3param: answersOf(param, ctx.zone, 'NSEC3PARAM').map((a) => nsec3Param(rdata<Buffer>(a))),
    };
  });
}

/** NSEC3PARAM RDATA (RFC 5155 §4.2), which dns-packet leaves raw: algorithm, flags, iterations, salt. */
function nsec3Param(rdata: Buffer): { iterations: number; salt: Buffer } {
  const b = Buffer.from(rdata);
  if (b.length < 5) return { iterations: 0, salt: Buffer.alloc(0) };
  return { iterations: b.readUInt16BE(2), salt: b.subarray(5, 5 + b[4]!) };
}

function matches(zone: string, ds: Ds, key: Dnskey): boolean {
  const alg = DIGESTS[ds.digestType];
  if (!alg || ds.algorithm !== key.algorithm) return false;
  const digest = createHash(alg).update(nameWire(zone)).update(dnskeyRdata(key)).digest();
  return digest.equals(Buffer.from(ds.digest));
}

const world = (ctx: HealthContext) => ctx.world !== null;
const DAY = 86_400_000;
/** Expiry warned of this far ahead: Vigil re-signs days before (docs/dnssec.md); 3 days left means it has not. */
const EXPIRY_MARGIN = 3 * DAY;

export const DNSSEC_CHECKS: HealthCheck<HealthContext>[] = [
  {
    id: 'dnssec.unsigned',
    level: 'INFO',
    family: 'dnssec',
    reference: 'Zonemaster DNSSEC07/DNSSEC10, RFC 4033',
    solution:
      'Turn signing on (dnsSetDNSSEC.php enable=YES), then give the registrar the DS that dnsGetDNSSEC.php shows.',
    run: async (ctx) => {
      if (ctx.signing) return [];
      return [
        {
          name: ctx.zone,
          message: 'the zone is not signed with DNSSEC: resolvers cannot tell its answers from forged ones',
        },
      ];
    },
  },
  {
    id: 'dnssec.no-ds',
    level: 'NOTICE',
    family: 'dnssec',
    reference: 'Zonemaster DNSSEC07 (DNSKEY_BUT_NOT_DS), RFC 4035 §5',
    solution: 'Give the registrar the DS that dnsGetDNSSEC.php shows: until then no resolver validates the zone.',
    run: async (ctx) => {
      if (!ctx.signing || !world(ctx)) return [];
      const c = await chain(ctx);
      return c.answered && !c.ds.length && c.dnskey.length
        ? [
            {
              name: ctx.zone,
              message: 'the zone is signed but the parent holds no DS for it: the chain of trust stops at the parent',
            },
          ]
        : [];
    },
  },
  {
    id: 'dnssec.ds-mismatch',
    level: 'ERROR',
    family: 'dnssec',
    reference: 'Zonemaster DNSSEC02, RFC 4035 §5.2',
    solution:
      "Replace the parent's DS with the one dnsGetDNSSEC.php shows; remove DS records of keys the zone no longer has.",
    run: async (ctx) => {
      if (!world(ctx)) return [];
      const c = await chain(ctx);
      if (!c.ds.length) return [];
      const lost = c.ds.filter((d) => !c.dnskey.some((k) => matches(ctx.zone, d, k)));
      if (!lost.length) return [];
      const tags = lost.map((d) => `${d.keyTag}/${d.algorithm}/${d.digestType}`).join(', ');
      // One DS that still matches keeps the zone validating: a stale one beside it is a warning.
      const broken = lost.length === c.ds.length;
      return [
        {
          name: ctx.zone,
          level: broken ? 'ERROR' : 'WARNING',
          message: broken
            ? `no DS at the parent (${tags}) matches a key of the zone: validating resolvers answer SERVFAIL for every name`
            : `the DS ${tags} at the parent matches no key of the zone`,
        },
      ];
    },
  },
  {
    id: 'dnssec.ds-sha1',
    level: 'WARNING',
    family: 'dnssec',
    reference: 'Zonemaster DNSSEC01, RFC 8624 §3.3 (SHA-1 DS MUST NOT be used)',
    solution: 'Give the registrar a SHA-256 DS (digest type 2, as dnsGetDNSSEC.php shows it) and remove the SHA-1 one.',
    run: async (ctx) => {
      if (!world(ctx)) return [];
      const c = await chain(ctx);
      return c.ds.length && c.ds.every((d) => d.digestType === 1)
        ? [
            {
              name: ctx.zone,
              message: 'every DS at the parent uses SHA-1 (digest type 1), which validators are dropping',
            },
          ]
        : [];
    },
  },
  {
    id: 'dnssec.signature-expiry',
    level: 'WARNING',
    family: 'dnssec',
    reference: 'Zonemaster DNSSEC04, RFC 4035 §5.3.1',
    solution:
      'Check that the distribution cycle runs (vigil admin log, the cycle metrics): it re-signs zones well before expiry.',
    run: async (ctx) => {
      if (!world(ctx)) return [];
      const c = await chain(ctx);
      const hits: Hit[] = [];
      for (const s of c.rrsig) {
        const left = s.expiration * 1000 - ctx.now;
        if (left > EXPIRY_MARGIN) continue;
        const when = new Date(s.expiration * 1000).toISOString();
        hits.push({
          name: ctx.zone,
          level: left <= 0 ? 'ERROR' : 'WARNING',
          message: `the signature over ${s.typeCovered} (key ${s.keyTag}) ${left <= 0 ? 'expired' : 'expires'} at ${when}`,
        });
      }
      return hits;
    },
  },
  {
    id: 'dnssec.denial',
    level: 'INFO',
    family: 'dnssec',
    reference: 'Zonemaster DNSSEC03, RFC 9276 §3.1 (NSEC3: 0 extra iterations, no salt)',
    solution:
      'Use NSEC3 with no salt and 0 iterations (dnsSetDNSSEC.php nsec3=YES) if the names must not be listable; NSEC is fine otherwise.',
    run: async (ctx) => {
      if (!ctx.signing || !world(ctx)) return [];
      const c = await chain(ctx);
      if (!c.dnskey.length) return [];
      if (!c.nsec3param.length)
        return [{ name: ctx.zone, message: 'denial of existence by NSEC: anyone can list every name of the zone' }];
      const p = c.nsec3param[0]!;
      return p.iterations > 0 || p.salt.length > 0
        ? [
            {
              name: ctx.zone,
              level: 'WARNING',
              message: `NSEC3 with ${p.iterations} extra iterations and a ${p.salt.length}-byte salt: costs resolvers, protects nothing`,
            },
          ]
        : [];
    },
  },
];
