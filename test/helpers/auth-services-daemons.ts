/**
 * Authentication services for the tests and the detection fleet (plans:
 * files written, commands returned; each caller runs them its own way):
 * - MIT Kerberos (krb5-kdc, krb5-admin-server's kadmin.local): a realm with
 *   "admin" (pre-authentication required) and "backup" (MIT's default for a
 *   new principal: none, so AS-REP roastable), and RC4 keys besides AES;
 *   the hardened twin sets default_principal_flags = +preauth, so every
 *   principal needs it, and makes AES keys only.
 * - FreeRADIUS: one auth listener, one client entry for 127.0.0.0/8 (the
 *   source address of loopback traffic) with FreeRADIUS's shipped secret
 *   "testing123", or a long random one on the twin.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DaemonPlan {
  /** A shared secret the plan chose (RADIUS), for a readiness probe. */
  secret?: string;
  env: NodeJS.ProcessEnv;
  /** Commands to run to completion first. */
  setup: [cmd: string, args: string[]][];
  /** The daemon, in the foreground. */
  cmd: string;
  args: string[];
}

export const MIT_KDC_BINARIES = ['krb5kdc', 'kdb5_util', 'kadmin.local'];
/** The principals planted, each with a random password (the checks never send one). */
export const KDC_USERS = { preauth: 'admin', roastable: 'backup' } as const;

export function mitKdcPlan(dir: string, realm: string, address: string, port: number, hardened: boolean): DaemonPlan {
  const krb5 = join(dir, 'krb5.conf');
  const kdc = join(dir, 'kdc.conf');
  writeFileSync(
    krb5,
    `[libdefaults]\n default_realm = ${realm}\n dns_lookup_kdc = false\n dns_lookup_realm = false\n${hardened ? '' : ' allow_rc4 = true\n'}[realms]\n ${realm} = {\n  kdc = ${address}:${port}\n }\n`,
  );
  writeFileSync(
    kdc,
    [
      '[kdcdefaults]',
      ` kdc_listen = ${address}:${port}`,
      ` kdc_tcp_listen = ${address}:${port}`,
      '[realms]',
      ` ${realm} = {`,
      `  database_name = ${join(dir, 'principal')}`,
      `  key_stash_file = ${join(dir, 'stash')}`,
      `  acl_file = ${join(dir, 'kadm5.acl')}`,
      // The weak one also makes RC4 keys (arcfour-hmac) and lets the KDC use them (allow_rc4 in krb5.conf: without
      // it MIT 1.20 as Debian ships it answers BAD_ENCRYPTION_TYPE), as realms kept for old Windows clients do.
      `  supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal${hardened ? '' : ' arcfour-hmac:normal'}`,
      ...(hardened ? ['  default_principal_flags = +preauth'] : []),
      ' }',
      '[logging]',
      ' kdc = STDERR',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'kadm5.acl'), '');
  const env = { ...process.env, KRB5_CONFIG: krb5, KRB5_KDC_PROFILE: kdc };
  const password = randomBytes(12).toString('hex');
  const kadmin = (q: string): [string, string[]] => ['kadmin.local', ['-r', realm, '-q', q]];
  return {
    env,
    setup: [
      ['kdb5_util', ['-r', realm, 'create', '-s', '-P', randomBytes(12).toString('hex')]],
      kadmin(`addprinc -pw ${password} +requires_preauth ${KDC_USERS.preauth}`),
      kadmin(`addprinc -pw ${password} ${KDC_USERS.roastable}`),
    ],
    cmd: 'krb5kdc',
    args: ['-n', '-r', realm],
  };
}

export const FREERADIUS_BINARIES = ['freeradius'];

/** FreeRADIUS's shipped clients.conf secret. */
export const RADIUS_WEAK_SECRET = 'testing123';

/** `secret`: the client entry's (`true`: FreeRADIUS's shipped one; `false`: a long random one). */
export function freeradiusPlan(dir: string, address: string, port: number, secret: boolean | string): DaemonPlan {
  if (typeof secret !== 'string') secret = secret ? RADIUS_WEAK_SECRET : randomBytes(24).toString('base64url');
  writeFileSync(
    join(dir, 'radiusd.conf'),
    `prefix = /usr
exec_prefix = /usr
sysconfdir = /etc
localstatedir = /var
sbindir = /usr/sbin
logdir = ${dir}
raddbdir = ${dir}
radacctdir = ${dir}
name = radiusd
confdir = ${dir}
modconfdir = ${dir}
certdir = ${dir}
cadir = ${dir}
run_dir = ${dir}
db_dir = ${dir}
libdir = /usr/lib/freeradius
pidfile = ${dir}/radiusd.pid
max_request_time = 30
cleanup_delay = 5
max_requests = 1024
hostname_lookups = no
log {
  destination = stderr
  colourise = no
}
security {
  allow_core_dumps = no
  max_attributes = 200
  reject_delay = 1
  status_server = yes
}
thread pool {
  start_servers = 1
  max_servers = 2
  min_spare_servers = 1
  max_spare_servers = 2
  max_requests_per_server = 0
}
client loopback {
  ipaddr = 127.0.0.0/8
  secret = ${secret}
}
modules {
  pap {
  }
}
server default {
  listen {
    type = auth
    ipaddr = ${address}
    port = ${port}
  }
  authorize {
    pap
  }
  authenticate {
    Auth-Type PAP {
      pap
    }
  }
}
`,
  );
  return { env: process.env, secret, setup: [], cmd: 'freeradius', args: ['-f', '-d', dir, '-l', 'stdout'] };
}

/**
 * Status-Server (RFC 5997) signed with `secret` (Message-Authenticator, HMAC-MD5 over the packet with the
 * attribute zeroed, RFC 3579 §3.2): FreeRADIUS answers it at once where an Access-Reject waits reject_delay, so a
 * readiness probe uses it.
 */
export function radiusStatusServer(secret: string): Buffer {
  const packet = Buffer.concat([
    Buffer.from([12, randomBytes(1)[0]!, 0, 38]),
    randomBytes(16),
    Buffer.from([80, 18]),
    Buffer.alloc(16),
  ]);
  createHmac('md5', secret).update(packet).digest().copy(packet, 22);
  return packet;
}
