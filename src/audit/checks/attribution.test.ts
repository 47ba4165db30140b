import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Check, HostFacts, Net, Service } from '../engine/types.ts';
import { CHECKS } from './catalogue.ts';
import { sightings } from './versions/lib/version-extract.ts';

/**
 * CVEs and remedies that belong to one product (issue 14: "Attach a CVE and
 * a fix only when they apply to the product detected"). `label` is how a
 * description says which product a remedy is for ("Apache: ServerTokens
 * Prod; nginx: server_tokens off").
 */
const SCOPED: readonly { token: RegExp; product: RegExp; label: RegExp }[] = [
  { token: /CVE-2017-014[3-8]|MS17-010/g, product: /windows|microsoft/i, label: /windows/i },
  { token: /CVE-2008-5161/g, product: /cbc/i, label: /cbc/i },
  {
    token: /ProxyRequests|a2enmod|a2dismod|httpd\.conf|\.htaccess|ServerTokens|ServerSignature/g,
    product: /apache/i,
    label: /apache:?\s*$/i,
  },
  { token: /server_tokens|nginx\.conf|stub_status/g, product: /nginx/i, label: /nginx:?\s*$/i },
  { token: /CVE-2015-1635|MS15-034/g, product: /\biis\b|http\.sys|microsoft/i, label: /iis|windows/i },
];

/**
 * Checks that declare a product's CVEs and drop them at run time when another product answers, with where
 * that is tested.
 */
const RUNTIME_SCOPED: Record<string, string> = {
  'vigil.smb.v1':
    'drops the EternalBlue CVEs when the NTLMSSP challenge shows Samba (smb.ts isSamba; smb.test.ts on a real smbd)',
};

test('no check carries a CVE or remedy of another product in its table declaration', () => {
  const wrong: string[] = [];
  for (const c of CHECKS) {
    if (RUNTIME_SCOPED[c.id]) continue;
    // Version tables are scoped by construction: vigil.version.<product> fires only on that product's
    // sightings (below).
    if (c.id.startsWith('vigil.version.')) continue;
    const text = `${c.cves.join(' ')} | ${c.description} | ${c.solution}`;
    for (const s of SCOPED) {
      for (const m of text.matchAll(s.token)) {
        const before = text.slice(Math.max(0, m.index! - 12), m.index!);
        if (!s.product.test(`${c.id} ${c.title}`) && !s.label.test(before)) wrong.push(`${c.id}: ${m[0]}`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});

const svc = (over: Partial<Service>): Service => ({
  protocol: 'tcp',
  name: 'unknown',
  product: null,
  version: null,
  banner: null,
  tls: null,
  http: null,
  extra: {},
  port: 0,
  ...over,
});

/**
 * Facts of products a wrong attribution would hit: an nginx forward proxy,
 * Samba with SMBv1, an OpenSSH offering weak kex and MACs but no CBC
 * cipher, lighttpd, Postfix. The Net refuses every connection, so active
 * checks see only what the facts say.
 */
const HOST: HostFacts = {
  address: '127.0.0.1',
  openPorts: [22, 25, 80, 445, 8080],
  services: [
    svc({
      port: 22,
      name: 'ssh',
      banner: 'SSH-2.0-OpenSSH_9.3p1',
      extra: {
        kex: 'diffie-hellman-group1-sha1,curve25519-sha256',
        ciphers_c2s: 'aes128-ctr',
        ciphers_s2c: 'aes128-ctr',
        macs_c2s: 'hmac-md5,hmac-sha2-256',
        macs_s2c: 'hmac-sha1-96',
      },
    }),
    svc({ port: 25, name: 'smtp', banner: '220 mail.example ESMTP Postfix (Debian/GNU)' }),
    svc({ port: 80, name: 'http', http: { status: 200, headers: { server: 'lighttpd/1.4.45' }, body: '' } }),
    svc({ port: 445, name: 'microsoft-ds', product: 'Samba smbd 4.17.12-Debian', banner: 'Samba 4.17.12-Debian' }),
    svc({
      port: 8080,
      name: 'http-proxy',
      http: { status: 200, headers: { server: 'nginx/1.21.0', via: '1.1 nginx' }, body: '' },
    }),
  ],
};

const refuse: Net = {
  address: '127.0.0.1',
  connect: () => Promise.reject(new Error('refused by the test')),
  connectTls: () => Promise.reject(new Error('refused by the test')),
  udpRequest: async () => null,
};

test('the whole catalogue on product-mismatched facts: every CVE and remedy found applies to the product on its port', async () => {
  const wrong: string[] = [];
  const run = (c: Check) =>
    Promise.race([c.runOn(HOST, refuse).catch(() => []), new Promise<[]>((r) => setTimeout(() => r([]), 3000))]);
  const results = await Promise.all(CHECKS.map(async (c) => ({ c, found: await run(c) })));
  for (const { c, found } of results) {
    for (const f of found) {
      const s = HOST.services.find((x) => x.port === f.port);
      const seen = `${s?.product ?? ''} ${s?.banner ?? ''} ${JSON.stringify(s?.http?.headers ?? {})} ${JSON.stringify(s?.extra ?? {})}`;
      const text = `${(f.cves ?? c.cves).join(' ')} | ${f.detail} | ${f.solution ?? ''}`;
      for (const sc of SCOPED) {
        for (const m of text.matchAll(sc.token)) {
          if (!sc.product.test(seen) && !sc.label.test(text.slice(Math.max(0, m.index! - 12), m.index!)))
            wrong.push(`${c.id} on ${f.port}: ${m[0]}`);
        }
      }
      // A version row fires only where its own product was seen.
      const product = /^vigil\.version\.(\w+)$/.exec(c.id)?.[1];
      if (product && s && !sightings(s).some((x) => x.product === product))
        wrong.push(`${c.id} on ${f.port}: not ${product}`);
    }
  }
  assert.deepEqual(wrong, []);
  // The walk did see findings: the facts are not empty of weaknesses.
  assert.ok(results.some(({ c, found }) => c.id === 'vigil.ssh.weak-algorithms' && found.length === 1));
  assert.ok(results.some(({ c, found }) => c.id === 'vigil.version.lighttpd' && found.length > 0));
});
