import type { HealthContext } from './context.ts';
import { answersOf, isReferral } from './world.ts';
import { rdata, type Reply } from './wire.ts';
import type { HealthCheck, Hit } from './types.ts';

/** What the parent says about the zone (its referral), when one of its servers could be asked. */
export interface Delegation {
  parentZone: string | null;
  /** NS names in the parent's referral; null when no parent server could be asked. */
  ns: string[] | null;
  /** Glue addresses by NS name. */
  glue: Map<string, string[]>;
  /** The parent answered that the zone does not exist. */
  nxdomain: boolean;
  /** Parent server addresses that were not asked: the account may not audit them. */
  fenced: string[];
}

const names = (answers: Reply['answers']) => answers.map((a) => String(rdata(a)).replace(/\.$/, '').toLowerCase());

export function delegation(ctx: HealthContext): Promise<Delegation> {
  return ctx.once('delegation', async () => {
    const none: Delegation = { parentZone: null, ns: null, glue: new Map(), nxdomain: false, fenced: [] };
    const world = ctx.world;
    if (!world || !ctx.zone.includes('.')) return none;
    const parentName = ctx.zone.slice(ctx.zone.indexOf('.') + 1);
    const soa = await world.resolve(parentName, 'SOA');
    const owner = [...(soa?.answers ?? []), ...(soa?.authorities ?? [])].find((a) => a.type === 'SOA')?.name;
    if (!owner) return none;
    const parentZone = owner.toLowerCase();
    const nsReply = await world.resolve(parentZone, 'NS');
    const servers = (await Promise.all(names(answersOf(nsReply, parentZone, 'NS')).map((n) => world.addresses(n))))
      .flatMap((s) => s.addresses)
      .filter((a, i, all) => all.indexOf(a) === i);
    const askable = servers.filter((a) => world.mayAsk(a));
    const fenced = servers.filter((a) => !world.mayAsk(a));
    const replies = await Promise.all(askable.map((a) => world.direct(a, ctx.zone, 'NS')));
    const r = replies.find((x) => x && (isReferral(x) || x.aa));
    if (!r) return { ...none, parentZone, fenced };
    if (r.rcode === 'NXDOMAIN') return { ...none, parentZone, nxdomain: true, fenced };
    // A server of both zones answers with the zone's own NS set (authoritative); a parent's referral in authority.
    const ns = names([
      ...answersOf(r, ctx.zone, 'NS'),
      ...r.authorities.filter((a) => a.type === 'NS' && a.name.toLowerCase() === ctx.zone),
    ]);
    const glue = new Map<string, string[]>();
    for (const a of r.additionals)
      if (a.type === 'A' || a.type === 'AAAA') {
        const n = a.name.toLowerCase();
        glue.set(n, [...(glue.get(n) ?? []), String(rdata(a))]);
      }
    return { parentZone, ns: [...new Set(ns)].sort(), glue, nxdomain: false, fenced };
  });
}

const zoneNs = (ctx: HealthContext) => [...new Set(names(ctx.apex('NS')))].sort();

/** Every server of the zone (its own NS set and the parent's) and its addresses as the world and the glue give them. */
function servers(ctx: HealthContext): Promise<{ name: string; addresses: string[] }[]> {
  return ctx.once('servers', async () => {
    const d = await delegation(ctx);
    const all = [...new Set([...zoneNs(ctx), ...(d.ns ?? [])])];
    return Promise.all(
      all.map(async (name) => {
        const own = ctx.inZone(name) ? (await ctx.target(name)).addresses : [];
        const world = ctx.world ? (await ctx.world.addresses(name)).addresses : [];
        return { name, addresses: [...new Set([...(d.glue.get(name) ?? []), ...own, ...world])] };
      }),
    );
  });
}

/** Each server address's answer to SOA (without recursion), where it may be asked. */
function soaAnswers(ctx: HealthContext) {
  return ctx.once('soa-answers', async () => {
    const list = await servers(ctx);
    const world = ctx.world!;
    return Promise.all(
      list.flatMap((s) =>
        s.addresses
          .filter((a) => world.mayAsk(a))
          .map(async (address) => ({ name: s.name, address, reply: await world.direct(address, ctx.zone, 'SOA') })),
      ),
    );
  });
}

const RFC1912 = 'RFC 1912 §2.2, Zonemaster Zone02-Zone06';

export const DELEGATION_CHECKS: HealthCheck<HealthContext>[] = [
  {
    id: 'delegation.ns-count',
    level: 'WARNING',
    family: 'delegation',
    reference: 'Zonemaster Delegation01, RFC 1034 §4.1 (at least two servers)',
    solution: 'Name at least two name servers in the zone (Vigil adds ns1 to ns4 of --ns-domain to a new domain).',
    local: true,
    run: (ctx) => {
      const n = zoneNs(ctx).length;
      return n >= 2
        ? []
        : [
            {
              name: ctx.zone,
              message: `the zone names ${n} name server${n === 1 ? '' : 's'}: one outage takes it off the net`,
            },
          ];
    },
  },
  {
    id: 'delegation.soa-timers',
    level: 'WARNING',
    family: 'delegation',
    reference: RFC1912,
    solution:
      'Keep the SOA timers in the usual ranges: refresh 20 min-12 h, retry below refresh, expire 2-4 weeks, minimum (negative-caching TTL) 5 min-1 day (dnsSetSOA.php ttl).',
    local: true,
    run: (ctx) => {
      const soa = ctx.apex('SOA')[0];
      const d = soa && rdata<{ refresh: number; retry: number; expire: number; minimum: number }>(soa);
      if (!d) return [];
      const bad: string[] = [];
      if (d.refresh < 1200 || d.refresh > 43200) bad.push(`refresh ${d.refresh} s is outside 1200-43200`);
      if (d.retry >= d.refresh) bad.push(`retry ${d.retry} s is not below refresh ${d.refresh} s`);
      if (d.expire < 1209600 || d.expire > 2419200) bad.push(`expire ${d.expire} s is outside 2-4 weeks`);
      if (d.expire <= d.refresh) bad.push(`expire ${d.expire} s is not above refresh`);
      if (d.minimum < 300)
        bad.push(`minimum ${d.minimum} s is under 5 minutes: resolvers keep asking for names that do not exist`);
      if (d.minimum > 86400)
        bad.push(`minimum ${d.minimum} s is over a day: a name added later stays unseen that long`);
      return bad.map((message) => ({ name: ctx.zone, message: `SOA ${message}` }));
    },
  },
  {
    id: 'delegation.not-delegated',
    level: 'ERROR',
    family: 'delegation',
    reference: 'Zonemaster Basic01/Basic02',
    solution: 'Have the registrar (the parent zone) delegate the domain to the name servers the zone names.',
    run: async (ctx) => {
      const d = await delegation(ctx);
      if (d.nxdomain)
        return [{ name: ctx.zone, message: `the parent zone ${d.parentZone} says the domain does not exist` }];
      if (d.ns && !d.ns.length)
        return [{ name: ctx.zone, message: `the parent zone ${d.parentZone} gives no NS records for it` }];
      return [];
    },
  },
  {
    id: 'delegation.ns-mismatch',
    level: 'ERROR',
    family: 'delegation',
    reference: 'Zonemaster Delegation07, RFC 1034 §4.2.2',
    solution: "Make the parent's NS set (at the registrar) and the zone's NS records name the same servers.",
    run: async (ctx) => {
      const d = await delegation(ctx);
      if (!d.ns?.length) return [];
      const own = zoneNs(ctx);
      const onlyParent = d.ns.filter((n) => !own.includes(n));
      const onlyZone = own.filter((n) => !d.ns!.includes(n));
      const hits: Hit[] = [];
      if (onlyParent.length)
        hits.push({
          name: ctx.zone,
          message: `the parent names ${onlyParent.join(', ')}, which the zone's NS records do not`,
        });
      if (onlyZone.length)
        hits.push({
          name: ctx.zone,
          message: `the zone names ${onlyZone.join(', ')}, which the parent's delegation does not`,
        });
      return hits;
    },
  },
  {
    id: 'delegation.glue-mismatch',
    level: 'ERROR',
    family: 'delegation',
    reference: 'Zonemaster Consistency05, RFC 1034 §4.2.1',
    solution: 'Give the registrar the same addresses (glue) as the A/AAAA records of the name server in the zone.',
    run: async (ctx) => {
      const d = await delegation(ctx);
      const hits: Hit[] = [];
      for (const [name, glue] of d.glue) {
        if (!ctx.inZone(name) || ctx.belowCut(name)) continue;
        const own = [...ctx.rrs(name, 'A'), ...ctx.rrs(name, 'AAAA')].map((a) => String(rdata(a)));
        const missing = glue.filter((a) => !own.includes(a));
        const extra = own.filter((a) => !glue.includes(a));
        if (missing.length || extra.length)
          hits.push({
            name,
            message: `the parent's glue says ${glue.join(', ')}; the zone says ${own.join(', ') || 'no address'}`,
          });
      }
      return hits;
    },
  },
  {
    id: 'delegation.lame',
    level: 'ERROR',
    family: 'delegation',
    reference: 'Zonemaster Delegation04 and Connectivity01, RFC 1912 §2.8',
    solution:
      'Serve the zone on every server the delegation names (or take the server out of the NS set, at the parent too).',
    run: async (ctx) => {
      if (!ctx.world) return [];
      // A server without an address is dangling.ns's (which tells "does not exist" from "no answer").
      const hits: Hit[] = [];
      for (const a of await soaAnswers(ctx)) {
        const soa = answersOf(a.reply, ctx.zone, 'SOA');
        if (!a.reply) hits.push({ name: a.name, message: `name server ${a.name} (${a.address}) does not answer` });
        else if (!a.reply.aa || !soa.length)
          hits.push({
            name: a.name,
            message: `name server ${a.name} (${a.address}) does not answer for the zone with authority (${a.reply.rcode}${a.reply.aa ? '' : ', no AA flag'})`,
          });
      }
      return hits;
    },
  },
  {
    id: 'delegation.soa-serial',
    level: 'WARNING',
    family: 'delegation',
    reference: 'Zonemaster Consistency01, RFC 1996',
    solution:
      'Let the secondaries transfer the current version (check NOTIFY and transfer permissions), or wait for the next distribution.',
    run: async (ctx) => {
      const serials = new Map<number, string[]>();
      for (const a of await soaAnswers(ctx)) {
        const soa = answersOf(a.reply, ctx.zone, 'SOA')[0];
        if (a.reply?.aa && soa) {
          const serial = rdata<{ serial: number }>(soa).serial;
          serials.set(serial, [...(serials.get(serial) ?? []), `${a.name} (${a.address})`]);
        }
      }
      if (serials.size < 2) return [];
      const text = [...serials].map(([s, who]) => `${s} at ${who.join(', ')}`).join('; ');
      return [{ name: ctx.zone, message: `the servers answer with different SOA serials: ${text}` }];
    },
  },
  {
    id: 'delegation.resolver-silent',
    level: 'INFO',
    family: 'delegation',
    reference: 'docs/dns.md, "Zone health": --resolver',
    solution: 'Have the operator check --resolver (serve): the checks that ask the world were left out, not passed.',
    run: async (ctx) => {
      if (!ctx.world) return [];
      const r = await ctx.world.resolve(ctx.zone, 'SOA');
      return r
        ? []
        : [{ name: ctx.zone, message: 'the resolver did not answer: what the world sees of the zone was not checked' }];
    },
  },
  {
    id: 'delegation.unchecked',
    level: 'INFO',
    family: 'delegation',
    reference: 'docs/dns.md, "Zone health": what a check may contact',
    solution:
      'Grant the account these addresses (admin account update --allow-ip) to have the delegation checked at the parent.',
    run: async (ctx) => {
      const d = await delegation(ctx);
      return d.fenced.length && !d.ns
        ? [
            {
              name: d.parentZone ?? ctx.zone,
              message: `the parent's servers (${d.fenced.join(', ')}) were not asked: the account may not audit their addresses`,
            },
          ]
        : [];
    },
  },
];
