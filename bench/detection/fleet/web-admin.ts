/**
 * Web admin pages (issue 27). Debian monit: its web interface with the
 * documented admin:monit, and open to any address (allow 0.0.0.0/0.0.0.0,
 * no user). Debian tomcat10 + tomcat10-admin, one JVM (catalina.sh run,
 * CATALINA_BASE of our own, one Service per address): the Manager and
 * Host Manager with pairs copied from the documentation and tutorials, a
 * status-only user role1/role1, and a Manager whose /status constraint was
 * removed. Debian nginx: an auth_basic admin area with admin:admin, and a
 * whole site behind admin:password. Each twin keeps the same daemon with
 * the weakness configured away, and nothing else weak: strong passwords
 * over HTTPS with HSTS (Tomcat, nginx; Basic over plain HTTP would be a
 * weakness of its own), and for Monit, which cannot send HSTS, a strong
 * password and only an admin network let in (monitrc's `allow localhost`
 * advice).
 * nmap (default, vuln, safe) has nothing for these: http-default-accounts is
 * intrusive, http-enum lists /manager/html as "Apache Tomcat (401)" on the
 * twin too, and -sV calls Monit's port tcpwrapped (measured, nmap 7.93).
 */
import { join } from 'node:path';
import { leaf } from '../certs.ts';
import {
  CATALINA,
  MONIT,
  monitArgs,
  monitrc,
  tomcatBase,
  tomcatUser as u,
} from '../../../test/helpers/web-admin-configs.ts';
import { addr, none, sleep, type Ctx, type Daemon, type Weakness } from './kit.ts';
import { HEADERS, INDEX, LIMITS, startNginx } from './nginx-proc.ts';

const STRONG = 'bench-Adm1n-not-a-secret';
const CREDS = /^vigil\.web\.default-credentials$/;
const OPEN = /^vigil\.web\.admin-open$/;
const SHIPPED = /^vigil\.web\.vendor-default-login$/;

const weakness = (
  daemon: string,
  address: string,
  port: number,
  w: Pick<Weakness, 'id' | 'label' | 'vigil' | 'nmap'>,
): Weakness => ({ family: 'auth', daemon, address, port, proto: 'tcp', ...w });

const MK = 30;
const M = (n: number) => addr(MK, n);
export const MONIT_ADMIN: Daemon = {
  kind: 'monit',
  binaries: [MONIT],
  ports: { tcp: [2812], udp: [] },
  weaknesses: [
    weakness('monit', M(1), 2812, {
      id: 'monit-default-credentials',
      label: "Monit web interface with monit's documented admin:monit",
      vigil: { id: SHIPPED },
      nmap: none,
    }),
    weakness('monit', M(2), 2812, {
      id: 'monit-open',
      label: 'Monit web interface open to any address without a login (allow 0.0.0.0/0.0.0.0)',
      vigil: { id: OPEN },
      // nmap -sV calls Monit's port tcpwrapped (Monit drops the silent NULL-probe connection), so no http script runs.
      nmap: none,
    }),
  ],
  twins: [{ address: M(100), note: 'a strong password, and only an admin network allowed (allow 192.0.2.10)' }],
  async start(ctx) {
    for (const [address, allow] of [
      [M(1), ['admin:monit']],
      [M(2), ['0.0.0.0/0.0.0.0']],
      [M(100), ['192.0.2.10', `admin:${STRONG}`]],
    ] as const) {
      const child = ctx.spawn(`monit-${address}`, MONIT, monitArgs(monitrc(ctx.dir(address), address, 2812, allow)));
      await ctx.waitTcp(address, 2812, child);
    }
  },
};

const TK = 31;
const T = (n: number) => addr(TK, n);
export const TOMCAT_ADMIN: Daemon = {
  kind: 'tomcat',
  binaries: [CATALINA, 'java'],
  ports: { tcp: [8080, 8443], udp: [] },
  weaknesses: [
    weakness('tomcat10', T(1), 8080, {
      id: 'tomcat-manager-s3cret',
      label: 'Tomcat Manager with tomcat/s3cret (the manager how-to example)',
      vigil: { id: CREDS, text: /Apache Tomcat Manager/ },
      nmap: none,
    }),
    weakness('tomcat10', T(1), 8080, {
      id: 'tomcat-host-manager-admin',
      label: 'Tomcat Host Manager with admin/admin',
      vigil: { id: CREDS, text: /Tomcat Host Manager/ },
      nmap: none,
    }),
    weakness('tomcat10', T(2), 8080, {
      id: 'tomcat-manager-tomcat',
      label: 'Tomcat Manager (GUI and text API) with tomcat/tomcat',
      vigil: { id: CREDS, text: /Apache Tomcat Manager/ },
      nmap: none,
    }),
    weakness('tomcat10', T(3), 8080, {
      id: 'tomcat-status-role1',
      label: 'Tomcat Manager status page with the sample user role1/role1 (manager-status)',
      vigil: { id: CREDS, text: /status page/ },
      nmap: none,
    }),
    weakness('tomcat10', T(4), 8080, {
      id: 'tomcat-status-open',
      label: "Tomcat Manager status page open without a login (the Manager's /status constraint removed)",
      vigil: { id: OPEN },
      nmap: none,
    }),
  ],
  twins: [{ address: T(100), note: 'strong passwords for tomcat and admin, HTTPS only (8443, TLS 1.2+) with HSTS' }],
  async start(ctx) {
    const dir = ctx.dir('base');
    const pem = await leaf(T(100));
    const tls = {
      cert: ctx.write(join(dir, 'cert.pem'), pem.cert),
      key: ctx.write(join(dir, 'key.pem'), pem.key, 0o600),
    };
    const env = tomcatBase(join(dir, 'catalina'), [
      {
        name: 'Twin',
        address: T(100),
        port: 8443,
        tls,
        users: [u('tomcat', STRONG, 'manager-gui,manager-status'), u('admin', STRONG, 'admin-gui')],
      },
      {
        name: 'S3cret',
        address: T(1),
        port: 8080,
        users: [u('tomcat', 's3cret', 'manager-gui'), u('admin', 'admin', 'admin-gui')],
      },
      { name: 'Tomcat', address: T(2), port: 8080, users: [u('tomcat', 'tomcat', 'manager-gui,manager-script')] },
      { name: 'Role1', address: T(3), port: 8080, users: [u('role1', 'role1', 'manager-status')] },
      { name: 'Open', address: T(4), port: 8080, users: [u('tomcat', STRONG, 'manager-gui')], openStatus: true },
    ]);
    const child = ctx.spawn('catalina', CATALINA, ['run'], { env });
    await ctx.waitTcp(T(4), 8080, child, 60_000);
    await managerAnswers(ctx, child, `http://${T(4)}:8080/manager/html`);
  },
};

/** Connectors bind before the applications deploy: wait until the last Service's Manager answers its 401. */
async function managerAnswers(ctx: Ctx, child: { exitCode: number | null }, url: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const status = await fetch(url, { signal: AbortSignal.timeout(3000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 401) return;
    if (child.exitCode !== null || Date.now() > deadline) {
      ctx.note(`the Manager at ${url} did not answer 401 (last status ${status})`);
      throw new Error(`tomcat: ${url} not ready`);
    }
    await sleep(250);
  }
}

const NK = 32;
const N = (n: number) => addr(NK, n);
export const HTTP_BASIC_ADMIN: Daemon = {
  kind: 'http-basic-admin',
  binaries: ['nginx', 'openssl'],
  ports: { tcp: [80, 443], udp: [] },
  weaknesses: [
    weakness('nginx', N(1), 80, {
      id: 'basic-admin-admin',
      label: 'nginx auth_basic /admin/ area with admin:admin',
      vigil: { id: CREDS },
      nmap: none,
    }),
    weakness('nginx', N(2), 80, {
      id: 'basic-site-password',
      label: 'nginx site behind auth_basic with admin:password',
      vigil: { id: CREDS },
      nmap: none,
    }),
  ],
  twins: [{ address: N(100), note: '/admin/ behind a strong password, HTTPS only with HSTS, security headers' }],
  async start(ctx) {
    const root = ctx.dir('nginx');
    const users = (name: string, password: string) =>
      ctx.write(join(root, `${name}.users`), `admin:${ctx.run('openssl', ['passwd', '-apr1', password]).trim()}\n`);
    const www = ctx.dir('www');
    ctx.write(join(www, 'index.html'), INDEX);
    ctx.write(join(www, 'admin/index.html'), INDEX);
    const pem = await leaf(N(100));
    const crt = ctx.write(join(root, 'twin.crt'), pem.cert);
    const key = ctx.write(join(root, 'twin.key'), pem.key, 0o600);
    const area = (file: string) => `location /admin/ { auth_basic "Administration"; auth_basic_user_file ${file}; }`;
    const common = `root ${www}; ${HEADERS} ${LIMITS} location ~ /\\. { return 404; }`;
    await startNginx(
      ctx,
      root,
      [
        `server { listen ${N(1)}:80; ${common} ${area(users('weak', 'admin'))} }`,
        `server { listen ${N(2)}:80; ${common} auth_basic "Router"; auth_basic_user_file ${users('site', 'password')}; }`,
        `server { listen ${N(100)}:443 ssl; ssl_certificate ${crt}; ssl_certificate_key ${key}; ssl_protocols TLSv1.2 TLSv1.3; add_header Strict-Transport-Security "max-age=31536000" always; ${common} ${area(users('strong', STRONG))} }`,
      ],
      [
        [N(1), 80],
        [N(2), 80],
        [N(100), 443],
      ],
    );
  },
};
