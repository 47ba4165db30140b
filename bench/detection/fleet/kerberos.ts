/**
 * Kerberos KDCs. MIT (Debian krb5-kdc, krb5-admin-server for kadmin.local):
 * "backup" created with MIT's defaults, so without pre-authentication (AS-REP
 * roastable), and "admin" with +requires_preauth, both with RC4 keys the KDC
 * may use (allow_rc4); the twin sets default_principal_flags = +preauth and
 * makes AES keys only, so only the existence of names shows (LOG). The
 * realm is in no list of Vigil's: the KDC's own answer has to name it
 * (test/helpers/auth-services-daemons.ts). Heimdal is not in the fleet:
 * Debian's heimdal-kdc conflicts with krb5-kdc and krb5-admin-server.
 */
import { MIT_KDC_BINARIES, mitKdcPlan } from '../../../test/helpers/auth-services-daemons.ts';
import { addr, none, type Daemon } from './kit.ts';

const K = 84;
const A = (n: number) => addr(K, n);
const REALM = 'BENCH-KDC.VIGIL.TEST';

export const MIT_KDC: Daemon = {
  kind: 'mit-kdc',
  binaries: MIT_KDC_BINARIES,
  ports: { tcp: [88], udp: [88] },
  weaknesses: [
    {
      id: 'krb5-asrep-roast',
      family: 'auth',
      label: 'Kerberos principal without pre-authentication: AS-REP roastable (MIT krb5kdc)',
      daemon: 'krb5kdc',
      address: A(1),
      port: 88,
      proto: 'tcp',
      vigil: { id: /^vigil\.kerberos\.asrep-roast$/ },
      // krb5-enum-users (auth, intrusive) is outside default,vuln,safe and needs the realm as an argument.
      nmap: none,
    },
    {
      id: 'krb5-weak-etypes',
      family: 'auth',
      label: 'Kerberos KDC issues RC4 keys (arcfour-hmac, allow_rc4; MIT krb5kdc)',
      daemon: 'krb5kdc',
      address: A(1),
      port: 88,
      proto: 'tcp',
      vigil: { id: /^vigil\.kerberos\.weak-etypes$/ },
      nmap: none,
    },
  ],
  twins: [
    {
      address: A(100),
      note: 'default_principal_flags = +preauth (every principal needs pre-authentication); AES keys only',
    },
  ],
  async start(ctx) {
    for (const [address, hardened] of [
      [A(1), false],
      [A(100), true],
    ] as const) {
      const plan = mitKdcPlan(ctx.dir(address), REALM, address, 88, hardened);
      for (const [cmd, args] of plan.setup) ctx.run(cmd, args, { env: plan.env });
      const kdc = ctx.spawn(`krb5kdc-${address}`, plan.cmd, plan.args, { env: plan.env });
      await ctx.waitTcp(address, 88, kdc);
    }
  },
};
