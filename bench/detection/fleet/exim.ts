/**
 * Exim (exim4-daemon-light 4.96, unpacked by .ci/run: it conflicts with
 * postfix), Debian's default MTA, so that the mail family is measured beyond
 * Postfix. One daemon per address (`exim4 -bdf -C`), configured by
 * test/helpers/mta-daemons.ts as the test is, each weak address carrying one
 * hole: A(1) relays for any host (`hostlist relay_from_hosts = *`), A(2)
 * answers VRFY (`acl_smtp_vrfy = accept`: Exim wants user@domain), A(3)
 * answers EXPN, A(4) offers AUTH PLAIN before any TLS (no TLS at all,
 * `auth_advertise_hosts = *`), A(5) the same with STARTTLS offered but not
 * required, A(6) STARTTLS with a self-signed certificate (Exim's TLS is
 * GnuTLS, Postfix's OpenSSL). Twin A(100): Debian's default policy (relay
 * only for relay_from_hosts, here 127.0.0.2 since the scanner connects from
 * 127.0.0.1; no VRFY/EXPN ACL), STARTTLS with a good certificate, AUTH only
 * once TLS is up. Nothing leaves: no DATA is sent, queue_only, no queue
 * runner, no router but local users.
 */
import { join } from 'node:path';
import { leaf } from '../certs.ts';
import {
  EXIM as EXIM_BIN,
  eximArgs,
  eximConfig,
  eximDirs,
  type EximOptions,
  mtaUsers,
} from '../../../test/helpers/mta-daemons.ts';
import { addr, any, script, type Daemon } from './kit.ts';

const K = 110;
const A = (n: number) => addr(K, n);
const PORT = 25;
const at = (n: number) => ({ daemon: 'exim', address: A(n), port: PORT, proto: 'tcp' as const });

export const EXIM: Daemon = {
  kind: 'exim',
  binaries: [EXIM_BIN ?? 'exim4'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [
    {
      id: 'exim-open-relay',
      family: 'dns-mail',
      label: 'open relay (hostlist relay_from_hosts = *) (Exim)',
      ...at(1),
      vigil: { id: /^vigil\.smtp\.open-relay$/ },
      nmap: script('smtp-open-relay', /Server is an open relay/i),
    },
    {
      id: 'exim-vrfy',
      family: 'dns-mail',
      label: 'SMTP VRFY answers (acl_smtp_vrfy = accept) (Exim)',
      ...at(2),
      vigil: { id: /^vigil\.smtp\.user-enum$/ },
      nmap: any(script('smtp-enum-users', /root|METHOD/), script('smtp-commands', /VRFY/)),
    },
    {
      id: 'exim-expn',
      family: 'dns-mail',
      label: 'SMTP EXPN answers (acl_smtp_expn = accept) (Exim)',
      ...at(3),
      vigil: { id: /^vigil\.smtp\.user-enum$/ },
      nmap: any(script('smtp-enum-users', /root|METHOD/), script('smtp-commands', /EXPN/)),
    },
    {
      id: 'exim-cleartext-auth',
      family: 'cleartext',
      label: 'AUTH PLAIN before any TLS (auth_advertise_hosts = *) (Exim)',
      ...at(4),
      vigil: { id: /^vigil\.smtp\.cleartext-auth$/ },
      nmap: () => null,
    },
    {
      id: 'exim-auth-starttls-optional',
      family: 'cleartext',
      label: 'AUTH PLAIN offered before STARTTLS, TLS optional (Exim)',
      ...at(5),
      vigil: { id: /^vigil\.smtp\.cleartext-auth$/ },
      nmap: () => null,
    },
    {
      id: 'exim-starttls-self-signed',
      family: 'tls',
      label: 'SMTP STARTTLS with a self-signed certificate (Exim, GnuTLS)',
      ...at(6),
      vigil: { id: /^vigil\.tls\.cert-self-signed$/ },
      // nmap's ssl-cert prints no Issuer at the bench's verbosity (measured) and says nothing of trust.
      nmap: () => null,
    },
  ],
  twins: [
    {
      address: A(100),
      note: "Debian's relay policy (relay_from_hosts 127.0.0.2), no VRFY/EXPN ACL, STARTTLS, AUTH only after TLS",
    },
  ],
  async start(ctx) {
    mtaUsers();
    const certDir = ctx.dir('exim-tls');
    const pki = async (n: number, selfSigned: boolean) => {
      const pem = await leaf(A(n), { selfSigned });
      return {
        cert: ctx.write(join(certDir, `${n}.crt`), pem.cert),
        // Read by the daemon after it gave up root (it runs as Debian-exim).
        key: ctx.write(join(certDir, `${n}.key`), pem.key, 0o644),
      };
    };
    const plans: [number, EximOptions][] = [
      [1, { relay: true }],
      [2, { vrfy: true }],
      [3, { expn: true }],
      [4, { authCleartext: true }],
      [5, { authCleartext: true, tls: await pki(5, false) }],
      [6, { tls: await pki(6, true) }],
      [100, { tls: await pki(100, false) }],
    ];
    for (const [n, o] of plans) {
      const dir = ctx.dir(`exim-${n}`);
      eximDirs(dir);
      const conf = ctx.write(join(dir, 'exim.conf'), eximConfig(dir, o));
      await ctx.waitTcp(A(n), PORT, ctx.spawn(`exim-${n}`, EXIM_BIN ?? 'exim4', eximArgs(conf, A(n), PORT)));
    }
  },
};
