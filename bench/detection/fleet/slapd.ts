/**
 * Debian OpenLDAP slapd (slapd.conf style, mdb backend). Weak: the
 * default ACL ("access to * by * read") lets an anonymous bind read every
 * entry, people and their mail addresses included. Twin: anonymous binds
 * disallowed (disallow bind_anon, require authc), entries readable by
 * authenticated users only, StartTLS (TLS 1.2 and later) with a good certificate.
 * The port must also be named "ldap" by service detection (it came out
 * `unknown` before).
 */
import { join } from 'node:path';
import { leaf } from '../certs.ts';
import { addr, any, makeDir, script, svc, type Daemon } from './kit.ts';

const K = 13;
const A = (n: number) => addr(K, n);
const DATA = `dn: dc=shop,dc=example
objectClass: dcObject
objectClass: organization
dc: shop
o: Shop

dn: ou=people,dc=shop,dc=example
objectClass: organizationalUnit
ou: people

${['alice', 'bob', 'carol']
  .map(
    (u) => `dn: uid=${u},ou=people,dc=shop,dc=example
objectClass: inetOrgPerson
uid: ${u}
cn: ${u}
sn: ${u}
mail: ${u}@shop.example
userPassword: {SSHA}YmVuY2gtbm90LWEtc2VjcmV0`,
  )
  .join('\n\n')}
`;

export const SLAPD: Daemon = {
  kind: 'slapd',
  binaries: ['slapd', 'slapadd'],
  ports: { tcp: [389], udp: [] },
  weaknesses: [
    {
      id: 'ldap-anon-read',
      family: 'auth',
      label: 'LDAP anonymous bind reads the directory (people, mail)',
      daemon: 'slapd',
      address: A(1),
      port: 389,
      proto: 'tcp',
      vigil: { text: /anonym/i },
      nmap: any(script('ldap-rootdse', /namingContexts: dc=shop/), script('ldap-search', /uid=alice/)),
    },
    {
      id: 'ident-ldap',
      family: 'ident',
      label: 'LDAP named as ldap by service detection',
      daemon: 'slapd',
      address: A(1),
      port: 389,
      proto: 'tcp',
      vigil: { service: /^ldap$/ },
      nmap: svc(/^ldap/),
    },
  ],
  twins: [{ address: A(100), note: 'disallow bind_anon, require authc, StartTLS with a good certificate' }],
  async start(ctx) {
    for (const n of [1, 100]) {
      const root = ctx.dir(A(n));
      const db = makeDir(join(root, 'db'), undefined, 0o700);
      let extra = 'access to * by * read\n';
      if (n === 100) {
        const pem = await leaf(A(n));
        extra = `disallow bind_anon\nrequire authc\naccess to attrs=userPassword by self write by anonymous auth by * none\naccess to * by users read by * none\n`;
        ctx.write(
          join(root, 'tls.conf'),
          `TLSProtocolMin 3.3\nTLSCipherSuite NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2\nTLSCertificateFile ${ctx.write(join(root, 'cert.pem'), pem.cert)}\nTLSCertificateKeyFile ${ctx.write(join(root, 'key.pem'), pem.key, 0o600)}\n`,
        );
      }
      const conf = ctx.write(
        join(root, 'slapd.conf'),
        `include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
modulepath /usr/lib/ldap
moduleload back_mdb
pidfile ${root}/slapd.pid
${n === 100 ? `include ${root}/tls.conf\n` : ''}${n === 100 ? extra.split('\n').slice(0, 2).join('\n') : ''}
database mdb
maxsize 16777216
suffix "dc=shop,dc=example"
rootdn "cn=admin,dc=shop,dc=example"
rootpw bench-Lm3-not-a-secret
directory ${db}
${n === 100 ? extra.split('\n').slice(2).join('\n') : extra}`,
      );
      ctx.run('slapadd', ['-f', conf, '-l', ctx.write(join(root, 'data.ldif'), DATA)]);
      const child = ctx.spawn(`slapd-${A(n)}`, 'slapd', ['-d', '0', '-f', conf, '-h', `ldap://${A(n)}:389/`]);
      await ctx.waitTcp(A(n), 389, child);
    }
  },
};
