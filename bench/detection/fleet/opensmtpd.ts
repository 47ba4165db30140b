/**
 * OpenSMTPD (opensmtpd 6.8, unpacked by .ci/run: it conflicts with
 * postfix), the third MTA. One smtpd in a mount namespace of its own
 * (test/helpers/mta-daemons.ts: its spool and control socket are fixed at
 * build time), one listener per address, configured as the test is. A(1)
 * relays for anyone (`match from any … for any action "relay"`, the relay
 * pointed at a closed loopback port). Twin A(100): Debian's relay policy
 * (local clients only, here 127.0.0.2), STARTTLS, AUTH only after it.
 * OpenSMTPD implements neither VRFY nor EXPN, and refuses `auth` on a
 * listener without TLS ("auth requires tls/smtps"), so user enumeration and
 * cleartext AUTH cannot be planted on it. No TLS weakness either: Debian
 * 12's 6.8.0p2-4 (built against OpenSSL 3) fails every TLS handshake
 * (measured: `openssl s_client -starttls smtp` gets alert 80 "internal
 * error", smtpd logs "EVP lib", with RSA and ECDSA keys alike), so the
 * twin's STARTTLS is offered but never completes.
 */
import { join } from 'node:path';
import { leaf } from '../certs.ts';
import {
  mtaUsers,
  OPENSMTPD as SMTPD_BIN,
  opensmtpdCommand,
  opensmtpdConfig,
  UNSHARE,
} from '../../../test/helpers/mta-daemons.ts';
import { addr, script, type Daemon } from './kit.ts';

const K = 111;
const A = (n: number) => addr(K, n);
const PORT = 25;
const at = (n: number) => ({ daemon: 'opensmtpd', address: A(n), port: PORT, proto: 'tcp' as const });

export const OPENSMTPD: Daemon = {
  kind: 'opensmtpd',
  binaries: [SMTPD_BIN ?? 'smtpd', UNSHARE ?? 'unshare'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [
    {
      id: 'opensmtpd-open-relay',
      family: 'dns-mail',
      label: 'open relay (match from any for any action "relay") (OpenSMTPD)',
      ...at(1),
      vigil: { id: /^vigil\.smtp\.open-relay$/ },
      nmap: script('smtp-open-relay', /Server is an open relay/i),
    },
  ],
  twins: [
    {
      address: A(100),
      note: "Debian's relay policy (local clients: 127.0.0.2), STARTTLS (broken in this build, see above), AUTH only after TLS",
    },
  ],
  async start(ctx) {
    mtaUsers();
    const dir = ctx.dir('opensmtpd');
    const pki = async (n: number) => {
      const pem = await leaf(A(n));
      return {
        cert: ctx.write(join(dir, `${n}.crt`), pem.cert),
        // smtpd refuses a private key others may read.
        key: ctx.write(join(dir, `${n}.key`), pem.key, 0o600),
      };
    };
    const conf = ctx.write(
      join(dir, 'smtpd.conf'),
      opensmtpdConfig(dir, [
        { address: A(1), port: PORT, relay: true },
        { address: A(100), port: PORT, tls: await pki(100) },
      ]),
    );
    const { cmd, args } = opensmtpdCommand(conf);
    const child = ctx.spawn('opensmtpd', cmd, args);
    for (const n of [1, 100]) await ctx.waitTcp(A(n), PORT, child, 20_000);
  },
};
