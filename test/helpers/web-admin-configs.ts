/**
 * Configurations of the web admin daemons the default-credentials tests and
 * the detection bench start (Debian monit, tomcat10 + tomcat10-admin): one
 * writer per daemon, so that a test and its fleet file plant the same thing.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const MONIT = '/usr/bin/monit';
export const CATALINA = '/usr/share/tomcat10/bin/catalina.sh';
export const TOMCAT_ADMIN = '/usr/share/tomcat10-admin';

/**
 * A monitrc (mode 0600: monit refuses a control file others can read) with
 * its web interface on address:port; `allow` lines as monitrc writes them
 * (`admin:monit`, `0.0.0.0/0.0.0.0`, `192.0.2.10`).
 */
export function monitrc(dir: string, address: string, port: number, allow: readonly string[]): string {
  const path = join(dir, 'monitrc');
  writeFileSync(
    path,
    [
      'set daemon 300',
      `set pidfile ${dir}/monit.pid`,
      `set idfile ${dir}/monit.id`,
      `set statefile ${dir}/monit.state`,
      `set httpd port ${port} and use address ${address}`,
      ...allow.map((a) => `    allow ${a}`),
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  return path;
}
/** monit in the foreground (-I), with that control file. */
export const monitArgs = (rc: string) => ['-I', '-c', rc];

export interface TomcatService {
  /** Engine name, also the folder of its Host's context files. */
  name: string;
  address: string;
  port: number;
  /** <user …/> lines of its tomcat-users.xml. */
  users: string[];
  /** PEM certificate and key: an HTTPS connector (TLS 1.2+) instead of plain HTTP. */
  tls?: { cert: string; key: string };
  /** The Manager deployed with its /status/* security constraint removed (a misconfiguration). */
  openStatus?: boolean;
}

const user = (name: string, password: string, roles: string) =>
  `<user username="${name}" password="${password}" roles="${roles}"/>`;
export { user as tomcatUser };

/**
 * A CATALINA_BASE of our own: one Tomcat (one JVM) serving several
 * Services, each with its own connector, Engine, LockOutRealm over its own
 * user database (as Debian's server.xml has it), the Manager and Host
 * Manager of tomcat10-admin, and a ROOT page with a Content-Security-Policy. No shutdown port (-1).
 * conf/web.xml adds Tomcat's HttpHeaderSecurityFilter with HSTS (sent on
 * secure requests only), and error pages do not name the version: the
 * hardened twins carry nothing but what they are planted for.
 */
export function tomcatBase(base: string, services: readonly TomcatService[]): NodeJS.ProcessEnv {
  for (const d of ['conf', 'logs', 'work', 'temp']) mkdirSync(join(base, d), { recursive: true });
  for (const f of ['logging.properties', 'catalina.properties', 'context.xml'])
    copyFileSync(join('/etc/tomcat10', f), join(base, 'conf', f));
  const hsts = `<filter><filter-name>httpHeaderSecurity</filter-name><filter-class>org.apache.catalina.filters.HttpHeaderSecurityFilter</filter-class><init-param><param-name>hstsEnabled</param-name><param-value>true</param-value></init-param><init-param><param-name>hstsMaxAgeSeconds</param-name><param-value>31536000</param-value></init-param></filter>
<filter-mapping><filter-name>httpHeaderSecurity</filter-name><url-pattern>/*</url-pattern><dispatcher>REQUEST</dispatcher></filter-mapping>
</web-app>`;
  writeFileSync(
    join(base, 'conf', 'web.xml'),
    readFileSync('/etc/tomcat10/web.xml', 'utf8').replace(/<\/web-app>\s*$/, hsts),
  );
  const managerXml = readFileSync(join(TOMCAT_ADMIN, 'manager/WEB-INF/web.xml'), 'utf8');
  const resources: string[] = [];
  const blocks: string[] = [];
  for (const s of services) {
    writeFileSync(
      join(base, 'conf', `users-${s.name}.xml`),
      `<?xml version="1.0" encoding="UTF-8"?>\n<tomcat-users xmlns="http://tomcat.apache.org/xml" version="1.0">\n  ${s.users.join('\n  ')}\n</tomcat-users>\n`,
    );
    resources.push(
      `<Resource name="Users${s.name}" auth="Container" type="org.apache.catalina.UserDatabase" factory="org.apache.catalina.users.MemoryUserDatabaseFactory" pathname="conf/users-${s.name}.xml" readonly="true"/>`,
    );
    const contexts = join(base, 'conf', s.name, 'localhost');
    mkdirSync(contexts, { recursive: true });
    let alt = '';
    if (s.openStatus) {
      const dd = join(base, 'conf', `manager-web-${s.name}.xml`);
      // The constraint whose url-pattern is /status/* goes: the status page answers without a login.
      writeFileSync(
        dd,
        managerXml.replace(
          /<security-constraint>(?:(?!<\/security-constraint>)[\s\S])*?\/status\/\*[\s\S]*?<\/security-constraint>/,
          '',
        ),
      );
      alt = ` altDDName="${dd}"`;
    }
    for (const app of ['manager', 'host-manager'])
      writeFileSync(
        join(contexts, `${app}.xml`),
        `<Context docBase="${TOMCAT_ADMIN}/${app}" antiResourceLocking="false" privileged="true"${app === 'manager' ? alt : ''}/>\n`,
      );
    const root = join(base, `webapps-${s.name}`, 'ROOT');
    mkdirSync(root, { recursive: true });
    // A JSP: Tomcat has no configuration for a Content-Security-Policy header, the page sets it.
    writeFileSync(
      join(root, 'index.jsp'),
      `<%@ page session="false" %><% response.setHeader("Content-Security-Policy", "default-src 'self'"); %><html><body>bench site</body></html>\n`,
    );
    const connector = s.tls
      ? `<Connector address="${s.address}" port="${s.port}" protocol="org.apache.coyote.http11.Http11NioProtocol" SSLEnabled="true" maxParameterCount="1000">
      <SSLHostConfig protocols="TLSv1.2+TLSv1.3"><Certificate certificateFile="${s.tls.cert}" certificateKeyFile="${s.tls.key}" type="RSA"/></SSLHostConfig>
    </Connector>`
      : `<Connector address="${s.address}" port="${s.port}" protocol="HTTP/1.1" connectionTimeout="20000" maxParameterCount="1000"/>`;
    blocks.push(`  <Service name="${s.name}">
    ${connector}
    <Engine name="${s.name}" defaultHost="localhost">
      <Realm className="org.apache.catalina.realm.LockOutRealm">
        <Realm className="org.apache.catalina.realm.UserDatabaseRealm" resourceName="Users${s.name}"/>
      </Realm>
      <Host name="localhost" appBase="webapps-${s.name}" unpackWARs="false" autoDeploy="false">
        <Valve className="org.apache.catalina.valves.ErrorReportValve" showReport="false" showServerInfo="false"/>
      </Host>
    </Engine>
  </Service>`);
  }
  writeFileSync(
    join(base, 'conf', 'server.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>
<Server port="-1" shutdown="SHUTDOWN">
  <GlobalNamingResources>
    ${resources.join('\n    ')}
  </GlobalNamingResources>
${blocks.join('\n')}
</Server>
`,
  );
  return catalinaEnv(base);
}

/** The environment of `catalina.sh run` for a CATALINA_BASE of our own; `javaOpts` added to JAVA_OPTS. */
export function catalinaEnv(base: string, javaOpts: readonly string[] = []): NodeJS.ProcessEnv {
  return {
    ...process.env,
    CATALINA_HOME: '/usr/share/tomcat10',
    CATALINA_BASE: base,
    CATALINA_TMPDIR: join(base, 'temp'),
    // A small heap and the client compiler: several Tomcats start faster on a loaded 2-core machine.
    JAVA_OPTS: ['-Xmx192m -XX:TieredStopAtLevel=1 -Djava.security.egd=file:/dev/./urandom', ...javaOpts].join(' '),
  };
}
/** catalina.sh in the foreground. */
export const catalinaArgs = ['run'];
