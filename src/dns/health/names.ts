import type { Answer } from 'dns-packet';
import type { HealthContext, Target } from './context.ts';
import type { HealthCheck, Hit } from './types.ts';
import { rdata } from './wire.ts';

/** Records of a type anywhere in the zone, with their owners. */
function all(ctx: HealthContext, type: string): Answer[] {
  const out: Answer[] = [];
  for (const node of ctx.index.nodes.values()) out.push(...(node.get(type) ?? []));
  return out;
}

const targetOf = (a: Answer): string => {
  const d = rdata(a);
  if (a.type === 'MX') return (d as { exchange: string }).exchange;
  if (a.type === 'SRV') return (d as { target: string }).target;
  return String(d);
};

const why = (t: Target) =>
  t.state === 'nxdomain'
    ? 'does not exist'
    : t.state === 'unserved'
      ? 'is served by nobody (its servers fail or refuse: SERVFAIL/REFUSED)'
      : 'has no address (no A or AAAA)';

/** The resolver answered for the zone itself (World asks each question once). */
const resolverAnswers = async (ctx: HealthContext) =>
  ctx.world !== null && (await ctx.world.resolve(ctx.zone, 'SOA')) !== null;

/** A dangling-target row: records of `type` whose target is in one of `bad` states. */
function dangling(
  type: string,
  level: 'ERROR' | 'WARNING',
  bad: Target['state'][],
  solution: string,
): HealthCheck<HealthContext> {
  return {
    id: `dangling.${type.toLowerCase()}`,
    level,
    family: 'dangling',
    reference:
      type === 'CNAME'
        ? 'RFC 1034 §3.6.2; subdomain takeover (CWE-350, "dangling DNS records")'
        : type === 'NS'
          ? 'Zonemaster Delegation05/Address03, RFC 1034 §4.2.2'
          : type === 'MX'
            ? 'RFC 5321 §5.1'
            : 'RFC 2782',
    solution,
    // In-zone targets need only the zone; others are 'unknown' without the world and give nothing.
    local: true,
    run: async (ctx) => {
      const hits: Hit[] = [];
      await Promise.all(
        all(ctx, type).map(async (a) => {
          const target = targetOf(a).replace(/\.$/, '').toLowerCase();
          if (target === '') return; // "." : no service (RFC 2782, RFC 7505)
          const t = await ctx.target(target);
          if (bad.includes(t.state))
            hits.push({ name: a.name.toLowerCase(), message: `${type} target ${target} ${why(t)}` });
          // No answer in time while the resolver answers for the zone: most often servers that are gone
          // (a resolver waits 10 s and more on them before its SERVFAIL). A NOTICE: a slow server is not a fault.
          else if (t.state === 'unknown' && (await resolverAnswers(ctx)))
            hits.push({
              name: a.name.toLowerCase(),
              level: 'NOTICE',
              message: `${type} target ${target} gave no answer in time: if its servers are gone, it is dangling`,
            });
        }),
      );
      return hits;
    },
  };
}

/** The record types that are data, not DNSSEC's or the zone's bookkeeping. */
const DATA = (t: string) => !['RRSIG', 'NSEC', 'NSEC3', 'DNSKEY', 'CDS', 'CDNSKEY', 'SOA'].includes(t);

/** TTL bounds: under 30 s a record is asked for nearly every use; over 7 days is longer than resolvers keep anything (RFC 8767 §4 caps stale data at 7 days; BIND's max-cache-ttl defaults to 1 week). */
const TTL_LOW = 30;
const TTL_HIGH = 604_800;

export const NAME_CHECKS: HealthCheck<HealthContext>[] = [
  dangling(
    'CNAME',
    'ERROR',
    ['nxdomain', 'unserved'],
    'Delete the CNAME, or point it at a name that is served: a dangling alias lets whoever registers the target serve content under your name.',
  ),
  dangling(
    'MX',
    'ERROR',
    ['nxdomain', 'unserved', 'noaddress'],
    'Point the MX at a host name that has A/AAAA records, or delete it.',
  ),
  dangling(
    'NS',
    'ERROR',
    ['nxdomain', 'unserved', 'noaddress'],
    'Name only name servers that exist and have addresses; a dangling NS target can be registered by anyone and serve the zone.',
  ),
  dangling(
    'SRV',
    'WARNING',
    ['nxdomain', 'unserved', 'noaddress'],
    'Point the SRV record at a host that has addresses, or delete it.',
  ),
  {
    id: 'web.wildcard-shadowed',
    level: 'WARNING',
    family: 'web',
    reference: 'RFC 4592 §2.2.1 and §3.3.1 (a wildcard does not answer for a name that exists)',
    solution: 'Give the listed names the records the wildcard was meant to supply, or remove the wildcard.',
    local: true,
    run: (ctx) => {
      const wildcards = [...ctx.index.nodes].filter(([name]) => name.startsWith('*.'));
      if (!wildcards.length) return [];
      // One pass over the names, not one per wildcard: the names directly below each wildcard's parent.
      const below = new Map<string, string[]>(wildcards.map(([name]) => [name.slice(2), []]));
      for (const other of ctx.index.names)
        if (!other.startsWith('*.') && !other.startsWith('_') && !ctx.index.cuts.has(other))
          below.get(other.slice(other.indexOf('.') + 1))?.push(other);
      const hits: Hit[] = [];
      for (const [name, node] of wildcards) {
        const types = [...node.keys()].filter(DATA);
        const shadowed: string[] = [];
        for (const other of below.get(name.slice(2))!) {
          const has = [...(ctx.index.nodes.get(other)?.keys() ?? [])];
          const lost = has.includes('CNAME') ? [] : types.filter((t) => !has.includes(t));
          if (lost.length) shadowed.push(`${other} (no ${lost.join('/')})`);
        }
        const more = shadowed.length > 10 ? ` and ${shadowed.length - 10} more` : '';
        if (shadowed.length)
          hits.push({
            name,
            message: `the wildcard does not answer for names that exist: ${shadowed.slice(0, 10).join(', ')}${more}`,
          });
      }
      return hits;
    },
  },
  {
    id: 'web.ttl',
    level: 'WARNING',
    family: 'web',
    reference: 'RFC 1035 §3.2.1, RFC 8767 §4; RIPE-203',
    solution: `Keep TTLs between ${TTL_LOW} s and ${TTL_HIGH / 86400} days (an hour to a day is common practice).`,
    local: true,
    run: (ctx) => {
      const hits: Hit[] = [];
      for (const [name, node] of ctx.index.nodes)
        for (const [type, rrs] of node) {
          if (!DATA(type) || !rrs.length) continue;
          const ttl = (rrs[0] as { ttl?: number }).ttl ?? 0;
          if (ttl < TTL_LOW)
            hits.push({ name, message: `${type} TTL ${ttl} s: resolvers ask again for nearly every use` });
          else if (ttl > TTL_HIGH)
            hits.push({
              name,
              message: `${type} TTL ${ttl} s: a change takes over a week to be seen, and resolvers cap it anyway`,
            });
        }
      return hits;
    },
  },
  {
    id: 'web.caa-missing',
    level: 'NOTICE',
    family: 'web',
    reference: 'RFC 8659 §4; internet.nl "CAA"',
    solution: 'Add a CAA record naming the CA you use, e.g. `0 issue "letsencrypt.org"` at the apex.',
    local: true,
    run: (ctx) =>
      ctx.apex('CAA').length
        ? []
        : [
            {
              name: ctx.zone,
              message: 'no CAA record: every certificate authority may issue certificates for the domain',
            },
          ],
  },
  {
    id: 'web.caa-no-ca',
    level: 'WARNING',
    family: 'web',
    reference: 'RFC 8659 §4.2-4.3',
    solution:
      'Add an `issue` property naming the CA that issues your certificates (an empty `issue ";"` forbids them all).',
    local: true,
    run: (ctx) => {
      const caa = ctx.apex('CAA').map((a) => rdata<{ tag: string; value: string }>(a));
      if (!caa.length) return [];
      const issuers = caa
        .filter((c) => c.tag.toLowerCase() === 'issue' || c.tag.toLowerCase() === 'issuewild')
        .map((c) => c.value.split(';')[0]!.trim())
        .filter(Boolean);
      if (issuers.length) return [];
      const forbids = caa.some((c) => c.tag.toLowerCase() === 'issue');
      return [
        {
          name: ctx.zone,
          message: forbids
            ? 'the CAA records name no certificate authority: no CA may issue a certificate for the domain'
            : 'the CAA records have no issue property: they restrict nothing',
        },
      ];
    },
  },
];
