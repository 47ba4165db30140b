/**
 * Debian tomcat10 (+ tomcat10-examples) as Java application server: two
 * JVMs (catalina.sh run, CATALINA_BASE of our own, test/helpers/java-configs.ts).
 * Weak JVM: an AJP connector with no secret that accepts any request
 * attribute (allowedRequestAttributesPattern=".*", as Shibboleth and
 * mod_jk set-ups add it; Ghostcat then reads WEB-INF/web.xml), a second one
 * with no secret only (requests forwarded, attributes refused), the
 * examples and docs applications beside the site, and the JVM's JMX agent
 * with authenticate=false. Hardened JVM: AJP with secretRequired and a
 * secret, a Service with no AJP, no samples, and JMX with a password file.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CATALINA, TOMCAT_EXAMPLES, javaTomcat } from '../../../test/helpers/java-configs.ts';
import { addr, none, script, sleep, svc, type Ctx, type Daemon, type Weakness } from './kit.ts';

const K = 60;
const A = (n: number) => addr(K, n);
const PORTS = { http: 8080, ajp: 8009, jmx: 1099 };
const SECRET = 'bench-Ajp-not-a-secret-7Qx';

const weakness = (w: Omit<Weakness, 'daemon' | 'proto'>): Weakness => ({ ...w, daemon: 'tomcat10', proto: 'tcp' });

export const TOMCAT_JAVA: Daemon = {
  kind: 'tomcat-java',
  binaries: [CATALINA, 'java'],
  ports: { tcp: Object.values(PORTS), udp: [] },
  weaknesses: [
    weakness({
      id: 'tomcat-ajp-ghostcat',
      family: 'web',
      label:
        'AJP connector without secret accepting request attributes: WEB-INF/web.xml read (Ghostcat, CVE-2020-1938)',
      address: A(1),
      port: PORTS.ajp,
      vigil: { id: /^vigil\.ajp\.file-read$/ },
      // ajp-request fetches / only; no script sends the include attributes.
      nmap: none,
    }),
    weakness({
      id: 'tomcat-ajp-open',
      family: 'auth',
      label: 'AJP connector forwarding requests from anyone (secretRequired="false")',
      address: A(2),
      port: PORTS.ajp,
      vigil: { id: /^vigil\.ajp\.open$/ },
      // ajp-methods' OPTIONS was forwarded (the twin's secret: "Failed to get a valid response"); measured, nmap 7.93.
      nmap: script('ajp-methods', /Supported methods:/),
    }),
    weakness({
      id: 'tomcat-ajp-named',
      family: 'ident',
      label: 'AJP/1.3 connector named (CPing answered CPong)',
      address: A(2),
      port: PORTS.ajp,
      vigil: { service: /^ajp13$/ },
      nmap: svc(/ajp13/),
    }),
    weakness({
      id: 'tomcat-jmx-noauth',
      family: 'auth',
      label: 'JMX remote with authenticate=false (RMIServer.newClient(null) accepted)',
      address: A(3),
      port: PORTS.jmx,
      vigil: { id: /^vigil\.jmx\.noauth$/ },
      // rmi-dumpregistry lists jmxrmi on the twin alike: it proves no missing authentication.
      nmap: none,
    }),
    weakness({
      id: 'tomcat-examples',
      family: 'web',
      label: 'Tomcat examples and documentation applications installed (tomcat10-examples)',
      address: A(1),
      port: PORTS.http,
      vigil: { id: /^vigil\.http\.sample-apps$/ },
      nmap: script('http-enum', /\/examples\/: Sample scripts/),
    }),
  ],
  twins: [
    { address: A(100), note: 'AJP with secretRequired and a secret, no sample applications' },
    { address: A(101), note: 'no AJP connector; JMX with authenticate=true and a password file' },
  ],
  async start(ctx) {
    const weak = javaTomcat(ctx.dir('weak'), {
      http: [{ address: A(1), port: PORTS.http }],
      ajp: [
        { address: A(1), port: PORTS.ajp, anyAttribute: true },
        { address: A(2), port: PORTS.ajp },
      ],
      samples: true,
      jmx: { address: A(3), port: PORTS.jmx, local: 28611 },
    });
    const twin = javaTomcat(ctx.dir('twin'), {
      http: [
        { address: A(100), port: PORTS.http },
        { address: A(101), port: PORTS.http },
      ],
      ajp: [{ address: A(100), port: PORTS.ajp, secret: SECRET }],
      samples: false,
      jmx: { address: A(101), port: PORTS.jmx, local: 28612, password: SECRET },
    });
    if (!existsSync(TOMCAT_EXAMPLES)) ctx.note(`${TOMCAT_EXAMPLES} missing: tomcat10-examples is not installed`);
    const children = [
      ctx.spawn('catalina-weak', CATALINA, ['run'], { env: weak }),
      ctx.spawn('catalina-twin', CATALINA, ['run'], { env: twin }),
    ];
    await Promise.all([
      ready(ctx, children[0]!, A(1)),
      ready(ctx, children[1]!, A(100)),
      ctx.waitTcp(A(3), PORTS.jmx, children[0], 90_000),
      ctx.waitTcp(A(101), PORTS.jmx, children[1], 90_000),
    ]);
  },
};

/** Connectors bind before the applications deploy: wait until ROOT answers 200. */
async function ready(ctx: Ctx, child: ChildProcess, address: string): Promise<void> {
  await ctx.waitTcp(address, PORTS.http, child, 90_000);
  const deadline = Date.now() + 90_000;
  for (;;) {
    const status = await fetch(`http://${address}:${PORTS.http}/`, { signal: AbortSignal.timeout(3000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`tomcat-java: ROOT on ${address} not ready (${status})`);
    await sleep(250);
  }
}
