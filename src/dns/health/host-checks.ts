import type { HealthContext } from './context.ts';
import type { TlsSeen } from './hosts.ts';
import type { HealthCheck, Hit, Level } from './types.ts';

interface Host {
  host: string;
  /** Addresses the account may audit: these alone are probed. */
  addresses: string[];
  fenced: string[];
}

/** Host names and their addresses, split by the account's audit permission. */
const hostsOf = (ctx: HealthContext, names: string[]): Promise<Host[]> =>
  Promise.all(
    names.map(async (host) => {
      const t = await ctx.target(host);
      const may = (a: string) => ctx.hosts!.mayAudit(a);
      return { host, addresses: t.addresses.filter(may), fenced: t.addresses.filter((a) => !may(a)) };
    }),
  );

/** Every MX host; the apex and www, the names a browser is given. */
const mxHosts = (ctx: HealthContext) =>
  hostsOf(
    ctx,
    ctx.mx().map((m) => m.exchange),
  );
const webHosts = (ctx: HealthContext) => hostsOf(ctx, [ctx.zone, `www.${ctx.zone}`]);

/**
 * A host row's run: `judge` on every auditable address of `hosts`, its hits
 * gathered; nothing when there is no world or no probing (a publish hint).
 */
function overHosts(
  which: (ctx: HealthContext) => Promise<Host[]>,
  judge: (ctx: HealthContext, host: string, address: string) => Promise<Hit[]>,
) {
  return async (ctx: HealthContext): Promise<Hit[]> => {
    if (ctx.hosts === null || ctx.world === null) return [];
    const hits: Hit[] = [];
    for (const h of await which(ctx)) for (const a of h.addresses) hits.push(...(await judge(ctx, h.host, a)));
    return hits;
  };
}

/** What is wrong with a certificate for its host at `now` (the server's clock); [] when nothing is. */
function certFaults(tls: TlsSeen, now: number): { level: Level; text: string }[] {
  const c = tls.certificate;
  if (!c) return [{ level: 'ERROR', text: 'no certificate was sent' }];
  const out: { level: Level; text: string }[] = [];
  const at = (ms: number) => new Date(ms).toISOString();
  if (c.notAfter < now) out.push({ level: 'ERROR', text: `the certificate expired at ${at(c.notAfter)}` });
  if (c.notBefore > now) out.push({ level: 'ERROR', text: `the certificate is not valid before ${at(c.notBefore)}` });
  if (tls.nameError) out.push({ level: 'ERROR', text: `the certificate does not name the host (${tls.nameError})` });
  return out;
}

const faults = (tls: TlsSeen | null, ctx: HealthContext, host: string, what: string): Hit[] =>
  (tls ? certFaults(tls, ctx.now) : []).map((f) => ({ name: host, level: f.level, message: `${what}: ${f.text}` }));

export const HOST_CHECKS: HealthCheck<HealthContext>[] = [
  {
    id: 'hosts.mx-starttls',
    level: 'WARNING',
    family: 'hosts',
    reference: 'RFC 3207; RFC 8314 §1; internet.nl "STARTTLS available"',
    solution:
      'Turn on STARTTLS in the mail server (Postfix: smtpd_tls_security_level = may, with a certificate for the MX name).',
    run: overHosts(mxHosts, async (ctx, host, a) => {
      const s = await ctx.smtp(a, host);
      // Silence is a NOTICE, not an alarm: many networks block outbound port 25 (most clouds do by default), so
      // from Vigil's side an unreachable MX proves nothing about the MX. Only what the server says is evidence.
      if (!s.reachable)
        return [
          {
            name: host,
            level: 'NOTICE',
            message: `nothing answered on port 25 at ${a} from this server: STARTTLS could not be checked`,
          },
        ];
      return s.starttls
        ? []
        : [
            {
              name: host,
              message: `the mail server at ${a} does not offer STARTTLS: mail to the domain travels in clear text`,
            },
          ];
    }),
  },
  {
    id: 'hosts.mx-certificate',
    level: 'ERROR',
    family: 'hosts',
    reference: 'RFC 7672 §3.2 and RFC 8461 §4.2 (the certificate must match the MX host name)',
    solution: 'Install a current certificate whose names include the MX host name.',
    run: overHosts(mxHosts, async (ctx, host, a) =>
      faults((await ctx.smtp(a, host)).starttls, ctx, host, `STARTTLS at ${a}`),
    ),
  },
  {
    id: 'hosts.open-relay',
    level: 'ERROR',
    family: 'hosts',
    reference: 'RFC 5321 §7.1 and §3.6.2; the audit check vigil.smtp.open-relay',
    solution:
      'Relay only for your own domains and authenticated users (Postfix: smtpd_relay_restrictions = permit_mynetworks, permit_sasl_authenticated, reject_unauth_destination).',
    run: overHosts(mxHosts, async (ctx, host, a) => {
      const relay = (await ctx.smtp(a, host)).openRelay;
      return relay ? [{ name: host, message: `the mail server at ${a} relays mail for anyone: ${relay}` }] : [];
    }),
  },
  {
    id: 'hosts.https',
    level: 'WARNING',
    family: 'hosts',
    reference: 'RFC 9110 §4.2.2, RFC 8446; internet.nl "HTTPS available"',
    solution: 'Serve the site over HTTPS on port 443 with a certificate for the name.',
    run: overHosts(webHosts, async (ctx, host, a) => {
      const s = await ctx.https(a, host);
      if (s.tls) return [];
      // As for port 25: a silent port may be a firewall between us, so only a refused handshake is a WARNING.
      if (!s.reachable)
        return [{ name: host, level: 'NOTICE', message: `nothing answered on port 443 at ${a} from this server` }];
      return [{ name: host, message: `port 443 at ${a} does not complete a TLS handshake` }];
    }),
  },
  {
    id: 'hosts.https-certificate',
    level: 'ERROR',
    family: 'hosts',
    reference: 'RFC 9110 §4.3.4, RFC 6125 §6',
    solution:
      'Install a current certificate whose names include this host name (the apex and www both, if both are served).',
    run: overHosts(webHosts, async (ctx, host, a) =>
      faults((await ctx.https(a, host)).tls, ctx, host, `HTTPS at ${a}`),
    ),
  },
  {
    id: 'hosts.untrusted-certificate',
    level: 'NOTICE',
    family: 'hosts',
    reference: 'RFC 5280 §6; internet.nl "Trust chain of certificate"',
    solution:
      'Use a certificate from a CA that browsers and mail servers trust (e.g. Let’s Encrypt), with its intermediates.',
    run: async (ctx) => {
      const untrusted = (tls: TlsSeen | null, host: string, what: string): Hit[] =>
        tls && !tls.trusted ? [{ name: host, message: `the ${what} certificate does not chain to a trusted CA` }] : [];
      const mail = overHosts(mxHosts, async (c, host, a) =>
        untrusted((await c.smtp(a, host)).starttls, host, `STARTTLS (${a})`),
      );
      const web = overHosts(webHosts, async (c, host, a) =>
        untrusted((await c.https(a, host)).tls, host, `HTTPS (${a})`),
      );
      return [...(await mail(ctx)), ...(await web(ctx))];
    },
  },
  {
    id: 'hosts.not-audited',
    level: 'INFO',
    family: 'hosts',
    reference: 'docs/audits.md (an account audits only its granted addresses)',
    solution:
      'Have the operator grant the account these addresses (admin account update --allow-ip) to have them checked.',
    run: async (ctx) => {
      if (ctx.hosts === null || ctx.world === null) return [];
      const fenced = [...(await mxHosts(ctx)), ...(await webHosts(ctx))].filter((h) => h.fenced.length);
      return fenced.map((h) => ({
        name: h.host,
        message: `not probed: the account may not audit ${h.fenced.join(', ')}`,
      }));
    },
  },
];
