/**
 * Debian BIND 9: one named, one view per address (match-destinations), so
 * each address has its own policy. Weak: AXFR to anyone (the zone named by
 * the address's own PTR record, where a scanner can learn it); open
 * recursion (forwarded only to a dead loopback port, so nothing leaves
 * loopback: it answers SERVFAIL with RA set); dynamic update from anyone
 * (allow-update { any; }, RFC 2136); a zone whose ANY answer is large, with minimal-any off and no
 * response-rate limit (reflection amplification). Twin: authoritative
 * only, transfers to none, no dynamic update (BIND's default), minimal-any, rate limit, version hidden.
 */
import { join } from 'node:path';
import { addr, script, type Ctx, type Daemon } from './kit.ts';

const K = 6;
const A = (n: number) => addr(K, n);

function zone(ctx: Ctx, dir: string, name: string, records: string): string {
  return ctx.write(
    join(dir, `${name}.zone`),
    `$TTL 3600
@ IN SOA ns1.${name}. hostmaster.${name}. ( 2026112301 3600 900 604800 300 )
@ IN NS ns1.${name}.
ns1 IN A 127.14.6.200
${records}
`,
  );
}

function reverse(ctx: Ctx, dir: string, view: string, n: number, name: string): string {
  return ctx.write(
    join(dir, `${view}.rev`),
    `$TTL 3600
@ IN SOA ns1.${name}. hostmaster.${name}. ( 2026112301 3600 900 604800 300 )
@ IN NS ns1.${name}.
${n} IN PTR ns1.${name}.
`,
  );
}

const HOSTS = Array.from(
  { length: 20 },
  (_, i) => `host${i} IN A 10.14.0.${i + 1}\nhost${i} IN TXT "inventory=${'x'.repeat(40)}"`,
).join('\n');
// 6 TXT sets of ~140 bytes: ~1 KB, inside BIND 9.18's default max-udp-size (1232). A larger
// answer (3.4 KB with 16, 5 KB with 24) is not an amplifier over UDP at all: BIND sends an
// empty TC reply (45 bytes, seen with dig +ignore +notcp) and the full answer only over TCP.
const BIG_ANY = Array.from({ length: 6 }, (_, i) => `@ IN TXT "v=bench${i} ${'k'.repeat(120)}"`).join('\n');

export const BIND: Daemon = {
  kind: 'bind9',
  binaries: ['named'],
  ports: { tcp: [53], udp: [53] },
  onLo: [1, 2, 3, 4, 100].map(A), // named listens on interface addresses only
  weaknesses: [
    {
      id: 'dns-axfr',
      family: 'dns-mail',
      label: 'zone transfer (AXFR) to anyone; zone named by the PTR of the address',
      daemon: 'bind9',
      address: A(1),
      port: 53,
      proto: 'tcp',
      vigil: { text: /axfr|zone transfer/i },
      nmap: script('dns-zone-transfer', /shop-axfr/),
    },
    {
      id: 'dns-recursion',
      family: 'dns-mail',
      label: 'open recursion (allow-recursion any)',
      daemon: 'bind9',
      address: A(2),
      port: 53,
      proto: 'udp',
      vigil: { text: /recurs/i },
      nmap: script('dns-recursion', /Recursion appears to be enabled/),
    },
    {
      id: 'dns-any-amp',
      family: 'dos',
      label: 'large ANY answers, minimal-any off, no rate limit (amplification)',
      daemon: 'bind9',
      address: A(3),
      port: 53,
      proto: 'udp',
      vigil: { text: /amplif|\bany\b/i },
      nmap: () => null,
    },
    {
      id: 'dns-update-any',
      family: 'dns-mail',
      label: 'dynamic update (RFC 2136) from anyone: allow-update { any; }',
      daemon: 'bind9',
      address: A(4),
      port: 53,
      proto: 'tcp',
      vigil: { id: /^vigil\.dns\.dynamic-update$/ },
      nmap: () => null,
    },
  ],
  twins: [
    {
      address: A(100),
      note: 'authoritative only, allow-transfer none, minimal-any, response-rate limit, version hidden',
    },
  ],
  async start(ctx) {
    const dir = ctx.dir('named');
    const view = (name: string, n: number, body: string, zones: [string, string][]) => `view "${name}" {
  match-destinations { ${A(n)}; };
  ${body}
  ${zones.map(([z, f]) => `zone "${z}" { type primary; file "${f}"; };`).join('\n  ')}
};`;
    const conf = ctx.write(
      join(dir, 'named.conf'),
      `options {
  directory "${dir}";
  pid-file "${dir}/named.pid";
  session-keyfile "${dir}/session.key";
  listen-on port 53 { ${[1, 2, 3, 4, 100].map(A).join('; ')}; };
  listen-on-v6 { none; };
  version none; hostname none; server-id none;
  dnssec-validation no;
  allow-transfer { none; };
  recursion no;
};
${view('axfr', 1, 'recursion no; allow-transfer { any; };', [
  ['shop-axfr.example', zone(ctx, dir, 'shop-axfr.example', HOSTS)],
  ['6.14.127.in-addr.arpa', reverse(ctx, dir, 'axfr', 1, 'shop-axfr.example')],
])}
${view('recursion', 2, 'recursion yes; allow-recursion { any; }; allow-query-cache { any; }; forward only; forwarders { 127.0.0.9 port 9; };', [])}
${view('amp', 3, 'recursion no; minimal-any no;', [
  ['shop-amp.example', zone(ctx, dir, 'shop-amp.example', BIG_ANY)],
  ['6.14.127.in-addr.arpa', reverse(ctx, dir, 'amp', 3, 'shop-amp.example')],
])}
view "update" {
  match-destinations { ${A(4)}; };
  recursion no;
  zone "shop-update.example" { type primary; file "${zone(ctx, dir, 'shop-update.example', HOSTS)}"; allow-update { any; }; };
  zone "6.14.127.in-addr.arpa" { type primary; file "${reverse(ctx, dir, 'update', 4, 'shop-update.example')}"; };
};
${view(
  'hardened',
  100,
  'recursion no; allow-transfer { none; }; minimal-any yes; rate-limit { responses-per-second 5; };',
  [
    ['shop.example', zone(ctx, dir, 'shop.example', HOSTS)],
    ['6.14.127.in-addr.arpa', reverse(ctx, dir, 'hardened', 100, 'shop.example')],
  ],
)}
`,
    );
    ctx.run('named-checkconf', [conf]);
    const child = ctx.spawn('named', 'named', ['-g', '-c', conf]);
    for (const n of [1, 2, 3, 4, 100]) await ctx.waitTcp(A(n), 53, child);
  },
};
