import { isIP } from 'node:net';
import type { HealthContext } from './context.ts';
import { countLookups, isSpf, parseSpf, SPF_LOOKUP_LIMIT } from './spf.ts';
import type { HealthCheck, Hit } from './types.ts';
import { answersOf } from './world.ts';
import { rdata } from './wire.ts';

const spfRecords = (ctx: HealthContext) => ctx.txt(ctx.zone).filter(isSpf);
const hasMx = (ctx: HealthContext) => ctx.mx().length > 0;

/** TXT strings of any name: the zone's own from the zone, others through the world. */
async function txtOf(ctx: HealthContext, name: string): Promise<string[]> {
  if (ctx.inZone(name) && !ctx.belowCut(name)) return ctx.txt(name);
  if (!ctx.world) return [];
  const r = await ctx.world.resolve(name, 'TXT');
  return answersOf(r, name, 'TXT').map((a) =>
    rdata<Buffer[]>(a)
      .map((b) => b.toString())
      .join(''),
  );
}

/** The DMARC record's tags (RFC 7489 §6.4), or null when `_dmarc` has none. */
function dmarc(ctx: HealthContext): { text: string; tags: Map<string, string> } | null {
  const text = ctx.txt(`_dmarc.${ctx.zone}`).find((t) => /^v\s*=\s*DMARC1\s*(;|$)/i.test(t));
  if (!text) return null;
  const tags = new Map<string, string>();
  for (const part of text.split(';')) {
    const i = part.indexOf('=');
    if (i > 0) tags.set(part.slice(0, i).trim().toLowerCase(), part.slice(i + 1).trim());
  }
  return { text, tags };
}

/** MX hosts that offered STARTTLS when probed (only hosts the account may audit are probed). */
async function starttlsOffered(ctx: HealthContext): Promise<boolean> {
  if (!ctx.hosts) return false;
  for (const mx of ctx.mx()) {
    const t = await ctx.target(mx.exchange);
    for (const a of t.addresses.filter((x) => ctx.hosts!.mayAudit(x)))
      if ((await ctx.smtp(a, mx.exchange)).starttls) return true;
  }
  return false;
}

const MAIL = 'mail' as const;

export const MAIL_CHECKS: HealthCheck<HealthContext>[] = [
  {
    id: 'mail.spf-missing',
    level: 'WARNING',
    family: MAIL,
    reference: 'RFC 7208 §3; internet.nl "SPF"',
    solution:
      'Publish one TXT record at the apex: `v=spf1 mx -all` for a domain that sends from its MX hosts, `v=spf1 -all` for one that sends no mail.',
    local: true,
    run: (ctx) =>
      spfRecords(ctx).length
        ? []
        : [
            hasMx(ctx)
              ? { name: ctx.zone, message: 'no SPF record: anyone can send mail in the domain’s name' }
              : {
                  name: ctx.zone,
                  level: 'NOTICE',
                  message: 'no SPF record; a domain that sends no mail should say so with `v=spf1 -all`',
                },
          ],
  },
  {
    id: 'mail.spf-multiple',
    level: 'ERROR',
    family: MAIL,
    reference: 'RFC 7208 §4.5 (more than one record: permerror)',
    solution: 'Merge the SPF records into one.',
    local: true,
    run: (ctx) => {
      const n = spfRecords(ctx).length;
      return n > 1
        ? [
            {
              name: ctx.zone,
              message: `${n} SPF records: receivers treat that as an error (permerror) and ignore them all`,
            },
          ]
        : [];
    },
  },
  {
    id: 'mail.spf-syntax',
    level: 'ERROR',
    family: MAIL,
    reference: 'RFC 7208 §4.6 and §12',
    solution: 'Correct the SPF record; a receiver rejects the whole record for one bad term (permerror).',
    local: true,
    run: (ctx) =>
      spfRecords(ctx).flatMap((t) => parseSpf(t).faults.map((f) => ({ name: ctx.zone, message: `SPF: ${f}` }))),
  },
  {
    id: 'mail.spf-pass-all',
    level: 'ERROR',
    family: MAIL,
    reference: 'RFC 7208 §5.1 and §10.1; internet.nl "SPF policy"',
    solution: 'End the SPF record with `-all` (or `~all`): `+all` lets every host on the Internet send as the domain.',
    local: true,
    run: (ctx) =>
      spfRecords(ctx)
        .filter((t) => parseSpf(t).all === '+')
        .map(() => ({ name: ctx.zone, message: 'the SPF record ends in +all: it authorizes every sender' })),
  },
  {
    id: 'mail.spf-neutral-all',
    level: 'WARNING',
    family: MAIL,
    reference: 'RFC 7208 §8.2; internet.nl "SPF policy"',
    solution: 'End the SPF record with `-all` (or `~all`): `?all` says nothing about other senders.',
    local: true,
    run: (ctx) =>
      spfRecords(ctx)
        .filter((t) => parseSpf(t).all === '?')
        .map(() => ({ name: ctx.zone, message: 'the SPF record ends in ?all (neutral): it protects nothing' })),
  },
  {
    id: 'mail.spf-lookups',
    level: 'ERROR',
    family: MAIL,
    reference: 'RFC 7208 §4.6.4 (at most 10 DNS look-ups)',
    solution: 'Replace include: and a/mx mechanisms by ip4:/ip6: ranges until a check needs at most 10 look-ups.',
    run: async (ctx) => {
      const hits: Hit[] = [];
      for (const t of spfRecords(ctx)) {
        const n = await countLookups(parseSpf(t), (name) => txtOf(ctx, name), 0, new Set([ctx.zone]));
        if (n > SPF_LOOKUP_LIMIT)
          hits.push({
            name: ctx.zone,
            message: `checking the SPF record takes ${n} DNS look-ups (include, a, mx, ptr, exists, redirect): receivers stop at 10 with an error`,
          });
      }
      return hits;
    },
  },
  {
    id: 'mail.dmarc-missing',
    level: 'WARNING',
    family: MAIL,
    reference: 'RFC 7489 §6.1; internet.nl "DMARC"',
    solution:
      'Publish a TXT record at _dmarc: `v=DMARC1; p=reject; rua=mailto:dmarc@your.domain` (p=quarantine while you watch the reports).',
    local: true,
    run: (ctx) =>
      dmarc(ctx)
        ? []
        : [
            {
              name: `_dmarc.${ctx.zone}`,
              level: hasMx(ctx) ? 'WARNING' : 'NOTICE',
              message: 'no DMARC record: receivers are not told what to do with mail that fails SPF and DKIM',
            },
          ],
  },
  {
    id: 'mail.dmarc-none',
    level: 'WARNING',
    family: MAIL,
    reference: 'RFC 7489 §6.3 (p=none: monitoring only); internet.nl "DMARC policy"',
    solution: 'Move the DMARC policy to p=quarantine, then p=reject, once the reports show your own mail passes.',
    local: true,
    run: (ctx) => {
      const d = dmarc(ctx);
      const p = d?.tags.get('p')?.toLowerCase();
      if (!d) return [];
      if (p === undefined || !['none', 'quarantine', 'reject'].includes(p))
        return [
          {
            name: `_dmarc.${ctx.zone}`,
            message: `the DMARC record has no valid p= tag (${p ?? 'absent'}): receivers ignore it`,
          },
        ];
      return p === 'none'
        ? [{ name: `_dmarc.${ctx.zone}`, message: 'DMARC policy p=none: mail that fails is delivered anyway' }]
        : [];
    },
  },
  {
    id: 'mail.dmarc-rua',
    level: 'WARNING',
    family: MAIL,
    reference: 'RFC 7489 §6.4 (rua), §7.1 (reports to another domain need its consent)',
    solution:
      'Write rua as mailto: addresses; a report address in another domain needs a `<your.domain>._report._dmarc.<its domain>` TXT "v=DMARC1" there.',
    run: async (ctx) => {
      const rua = dmarc(ctx)?.tags.get('rua');
      if (!rua) return [];
      const hits: Hit[] = [];
      for (const uri of rua.split(',').map((u) => u.trim())) {
        const m = /^mailto:([^@\s!]+)@([^!\s]+?)(![0-9]+[kmgt]?)?$/i.exec(uri);
        if (!m) {
          hits.push({ name: `_dmarc.${ctx.zone}`, message: `rua "${uri}" is not a mailto: address` });
          continue;
        }
        const domain = m[2]!.replace(/\.$/, '').toLowerCase();
        if (domain === ctx.zone || domain.endsWith(`.${ctx.zone}`) || !ctx.world) continue;
        const consent = await txtOf(ctx, `${ctx.zone}._report._dmarc.${domain}`);
        if (!consent.some((t) => /^v\s*=\s*DMARC1/i.test(t)))
          hits.push({
            name: `_dmarc.${ctx.zone}`,
            message: `rua ${uri}: ${domain} does not publish ${ctx.zone}._report._dmarc.${domain}, so receivers send it no reports`,
          });
      }
      return hits;
    },
  },
  {
    id: 'mail.mta-sts-missing',
    level: 'NOTICE',
    family: MAIL,
    reference: 'RFC 8461 §3.1; internet.nl',
    solution:
      'Publish `_mta-sts` TXT `v=STSv1; id=<date>` and the policy at https://mta-sts.<domain>/.well-known/mta-sts.txt, so senders insist on TLS.',
    run: async (ctx) => {
      if (!hasMx(ctx) || !(await starttlsOffered(ctx))) return [];
      const txt = ctx.txt(`_mta-sts.${ctx.zone}`).filter((t) => /^v=STSv1/i.test(t));
      if (!txt.length)
        return [
          {
            name: `_mta-sts.${ctx.zone}`,
            message: 'the MX hosts offer STARTTLS but no MTA-STS policy tells senders to require it',
          },
        ];
      return txt.some((t) => /(^|;)\s*id=[A-Za-z0-9]{1,32}\s*(;|$)/.test(t))
        ? []
        : [
            {
              name: `_mta-sts.${ctx.zone}`,
              level: 'WARNING',
              message: 'the MTA-STS record has no valid id= (1-32 letters and digits)',
            },
          ];
    },
  },
  {
    id: 'mail.tls-rpt-missing',
    level: 'NOTICE',
    family: MAIL,
    reference: 'RFC 8460 §3; internet.nl',
    solution:
      'Publish `_smtp._tls` TXT `v=TLSRPTv1; rua=mailto:tls-reports@<domain>` to hear of failed TLS deliveries.',
    run: async (ctx) => {
      if (!hasMx(ctx) || !(await starttlsOffered(ctx))) return [];
      const txt = ctx.txt(`_smtp._tls.${ctx.zone}`).filter((t) => /^v=TLSRPTv1/i.test(t));
      if (!txt.length)
        return [
          {
            name: `_smtp._tls.${ctx.zone}`,
            message: 'no TLS-RPT record: failed TLS deliveries to the MX hosts go unreported',
          },
        ];
      return txt.some((t) => /rua=(mailto:|https:)/i.test(t))
        ? []
        : [
            {
              name: `_smtp._tls.${ctx.zone}`,
              level: 'WARNING',
              message: 'the TLS-RPT record has no rua=mailto: or https: address',
            },
          ];
    },
  },
  {
    id: 'mail.mx-address',
    level: 'ERROR',
    family: MAIL,
    reference: 'RFC 5321 §5.1, RFC 1035 §3.3.9 (an MX names a host, not an address)',
    solution: 'Point the MX at a host name (e.g. mail.<domain>) that has the address as its A/AAAA record.',
    local: true,
    run: (ctx) =>
      ctx
        .mx()
        .filter((m) => isIP(m.exchange))
        .map((m) => ({
          name: ctx.zone,
          message: `MX target ${m.exchange} is an address, which senders look up as a name and do not find`,
        })),
  },
  {
    id: 'mail.mx-cname',
    level: 'WARNING',
    family: MAIL,
    reference: 'Zonemaster Zone08, RFC 2181 §10.3',
    solution: 'Point the MX at the canonical host name (the CNAME’s target), not at an alias.',
    run: async (ctx) => {
      const hits: Hit[] = [];
      for (const m of ctx.mx())
        if (!isIP(m.exchange) && (await ctx.target(m.exchange)).cname)
          hits.push({ name: ctx.zone, message: `MX target ${m.exchange} is a CNAME` });
      return hits;
    },
  },
];
