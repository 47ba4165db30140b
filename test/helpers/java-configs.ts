/**
 * Configurations of the Java services the AJP, JMX, sample-application and
 * ZooKeeper tests and the detection bench start (Debian tomcat10,
 * tomcat10-examples, zookeeper): one writer per daemon, so that a test and
 * its fleet file plant the same thing.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { catalinaEnv } from './web-admin-configs.ts';

export { CATALINA } from './web-admin-configs.ts';
export const TOMCAT_EXAMPLES = '/usr/share/tomcat10-examples/examples';
export const TOMCAT_DOCS = '/usr/share/tomcat10-docs/docs';
/** The descriptor's display name planted in ROOT: what a Ghostcat read must bring back. */
export const PLANTED = 'vigil planted descriptor';

export interface AjpConnector {
  address: string;
  port: number;
  /** secretRequired="true" with this secret; none: secretRequired="false" (the pre-2020 default). */
  secret?: string;
  /** allowedRequestAttributesPattern=".*": arbitrary request attributes accepted (what Ghostcat needs). */
  anyAttribute?: boolean;
}

export interface JavaTomcat {
  http: { address: string; port: number }[];
  ajp: AjpConnector[];
  /** Deploy tomcat10-examples (and tomcat10-docs where installed) as /examples and /docs. */
  samples: boolean;
  /** The JVM's JMX agent on address:port (registry and connector on one port); a password: authentication on. */
  jmx?: Jmx;
}

const SECURITY_FILTER = `<filter><filter-name>httpHeaderSecurity</filter-name><filter-class>org.apache.catalina.filters.HttpHeaderSecurityFilter</filter-class></filter>
<filter-mapping><filter-name>httpHeaderSecurity</filter-name><url-pattern>/*</url-pattern><dispatcher>REQUEST</dispatcher></filter-mapping>`;

/**
 * A CATALINA_BASE of our own for one Tomcat (one JVM, `catalina.sh run`):
 * one Service with the given HTTP and AJP connectors, a ROOT application
 * with a WEB-INF/web.xml (and a page sending X-Frame-Options, nosniff and
 * a Content-Security-Policy: Tomcat's HttpHeaderSecurityFilter and the
 * JSP), error pages that do not name the version, no shutdown port.
 * The JMX agent's options go in JAVA_OPTS (web-admin-configs.ts catalinaEnv).
 */
export function javaTomcat(base: string, t: JavaTomcat): NodeJS.ProcessEnv {
  for (const d of ['conf/Catalina/localhost', 'logs', 'work', 'temp', 'webapps/ROOT/WEB-INF'])
    mkdirSync(join(base, d), { recursive: true });
  for (const f of ['logging.properties', 'catalina.properties', 'context.xml'])
    writeFileSync(join(base, 'conf', f), readEtc(f));
  writeFileSync(
    join(base, 'conf/web.xml'),
    readEtc('web.xml').replace(/<\/web-app>\s*$/, `${SECURITY_FILTER}\n</web-app>\n`),
  );
  writeFileSync(
    join(base, 'webapps/ROOT/WEB-INF/web.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="5.0">\n  <display-name>${PLANTED}</display-name>\n</web-app>\n`,
  );
  writeFileSync(
    join(base, 'webapps/ROOT/index.jsp'),
    `<%@ page session="false" %><% response.setHeader("Content-Security-Policy", "default-src 'self'"); %><html><body>bench site</body></html>\n`,
  );
  // Debian's own context files: they override the applications' META-INF/context.xml (whose RemoteCIDRValve
  // lets only 127.0.0.0/8 in), so the packages' samples answer any address.
  if (t.samples)
    for (const [path, dir] of [
      ['examples', TOMCAT_EXAMPLES],
      ['docs', TOMCAT_DOCS],
    ] as const) {
      const debian = `/etc/tomcat10/Catalina/localhost/${path}.xml`;
      if (existsSync(dir))
        writeFileSync(
          join(base, `conf/Catalina/localhost/${path}.xml`),
          existsSync(debian) ? readFileSync(debian) : `<Context docBase="${dir}"/>\n`,
        );
    }
  const connectors = [
    ...t.http.map(
      (h) =>
        `<Connector address="${h.address}" port="${h.port}" protocol="HTTP/1.1" connectionTimeout="20000" maxParameterCount="1000"/>`,
    ),
    ...t.ajp.map(
      (a) =>
        `<Connector address="${a.address}" port="${a.port}" protocol="AJP/1.3" ${a.secret ? `secretRequired="true" secret="${a.secret}"` : 'secretRequired="false"'}${a.anyAttribute ? ' allowedRequestAttributesPattern=".*"' : ''}/>`,
    ),
  ];
  writeFileSync(
    join(base, 'conf/server.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>
<Server port="-1" shutdown="SHUTDOWN">
  <Service name="Catalina">
    ${connectors.join('\n    ')}
    <Engine name="Catalina" defaultHost="localhost">
      <Host name="localhost" appBase="webapps" unpackWARs="false" autoDeploy="false">
        <Valve className="org.apache.catalina.valves.ErrorReportValve" showReport="false" showServerInfo="false"/>
      </Host>
    </Engine>
  </Service>
</Server>
`,
  );
  return catalinaEnv(base, t.jmx ? jmxOptions(base, t.jmx) : []);
}

/** Debian's /etc/tomcat10 files, read when a Tomcat is set up (tests skip before that where tomcat10 is missing). */
const readEtc = (f: string) => readFileSync(join('/etc/tomcat10', f), 'utf8');

export interface Jmx {
  address: string;
  port: number;
  /**
   * The agent's local connector (started beside the remote one whatever the options; JDK 16+
   * com.sun.management.jmxremote.local.port): bound on every address (LocalRMIServerSocketFactory, which
   * accepts local clients only), so each caller pins its own port below the ephemeral range (32768-60999):
   * a random one showed on 127.0.0.3 in another test's port scan.
   */
  local: number;
  /** controlRole's password: authentication on. */
  password?: string;
  /** The JDK's jmxremote.password.template entries uncommented (monitorRole QED, controlRole R&D): authentication on. */
  template?: boolean;
}

/**
 * The JVM's own JMX agent (sun.management.jmxremote): registry and
 * connector on one port of one address, no TLS; with a password or the
 * template's, the password and access files (mode 0600: the JVM refuses a
 * password file others can read) and authenticate=true.
 */
export function jmxOptions(dir: string, jmx: Jmx): string[] {
  const opts = [
    `-Dcom.sun.management.jmxremote.port=${jmx.port}`,
    `-Dcom.sun.management.jmxremote.rmi.port=${jmx.port}`,
    `-Dcom.sun.management.jmxremote.host=${jmx.address}`,
    `-Djava.rmi.server.hostname=${jmx.address}`,
    '-Dcom.sun.management.jmxremote.ssl=false',
    '-Dcom.sun.management.jmxremote.local.only=false',
    `-Dcom.sun.management.jmxremote.local.port=${jmx.local}`,
  ];
  if (!jmx.password && !jmx.template) return [...opts, '-Dcom.sun.management.jmxremote.authenticate=false'];
  const password = join(dir, 'jmxremote.password');
  const access = join(dir, 'jmxremote.access');
  writeFileSync(password, jmx.template ? 'monitorRole QED\ncontrolRole R&D\n' : `controlRole ${jmx.password}\n`, {
    mode: 0o600,
  });
  chmodSync(password, 0o600);
  writeFileSync(access, 'monitorRole readonly\ncontrolRole readwrite\n', { mode: 0o600 });
  return [
    ...opts,
    '-Dcom.sun.management.jmxremote.authenticate=true',
    `-Dcom.sun.management.jmxremote.password.file=${password}`,
    `-Dcom.sun.management.jmxremote.access.file=${access}`,
  ];
}

// ---- ZooKeeper ----------------------------------------------------------------------------------

export const ZOOKEEPER_JAR = '/usr/share/java/zookeeper.jar';
/** Debian zookeeper's example configuration (its log4j.properties has a CONSOLE appender). */
const ZK_CONF = '/etc/zookeeper/conf_example';

/**
 * Debian's javax.servlet API (libservlet-api-java): zookeeper.jar's
 * manifest names Jetty but not it, so Debian's ZooKeeper logs "Unable to
 * load jetty, not starting JettyAdminServer" (NoClassDefFoundError
 * javax/servlet/Servlet, measured with 3.8.0-11+deb12u2); with it on the
 * classpath the AdminServer starts as in upstream's release, which ships
 * the jar.
 */
export const SERVLET_API = '/usr/share/java/servlet-api.jar';

/**
 * The classpath Debian's zookeeper runs with (its environment file:
 * the configuration directory, then zookeeper.jar, whose manifest names
 * the other jars), with `confDir` (given Debian's log4j.properties) in
 * place of /etc/zookeeper/conf, and the servlet API when `admin` (the
 * AdminServer) is wanted; null when zookeeper is not installed.
 */
export function zookeeperClasspath(confDir: string, admin = false): string | null {
  if (!existsSync(ZOOKEEPER_JAR) || !existsSync(join(ZK_CONF, 'log4j.properties'))) return null;
  mkdirSync(confDir, { recursive: true });
  writeFileSync(join(confDir, 'log4j.properties'), readFileSync(join(ZK_CONF, 'log4j.properties')));
  return [confDir, ZOOKEEPER_JAR, ...(admin && existsSync(SERVLET_API) ? [SERVLET_API] : [])].join(':');
}

/**
 * A standalone ZooKeeper's zoo.cfg on address:port. `admin`: the
 * AdminServer (Jetty, on by default) on address:admin instead of its
 * default 0.0.0.0:8080; null turns it off. `extra` lines:
 * 4lw.commands.whitelist, enforce.auth.* (zoo.cfg keys ZooKeeper does not
 * know become zookeeper.* system properties, QuorumPeerConfig.parseProperties).
 */
export function zooCfg(
  dir: string,
  address: string,
  port: number,
  extra: readonly string[],
  admin: number | null = null,
): string {
  mkdirSync(join(dir, 'data'), { recursive: true });
  const cfg = join(dir, 'zoo.cfg');
  writeFileSync(
    cfg,
    [
      'tickTime=2000',
      `dataDir=${join(dir, 'data')}`,
      `clientPort=${port}`,
      `clientPortAddress=${address}`,
      ...(admin === null
        ? ['admin.enableServer=false']
        : [`admin.serverAddress=${address}`, `admin.serverPort=${admin}`]),
      ...extra,
      '',
    ].join('\n'),
  );
  return cfg;
}

/**
 * A ZooKeeper in `dir` on address:port (`extra` and `admin` as zooCfg, `jmx`
 * the JVM's JMX agent, as ZooKeeper's admin guide suggests running it):
 * the java arguments, or null when zookeeper is not installed.
 */
export function zookeeper(
  dir: string,
  address: string,
  port: number,
  extra: readonly string[],
  admin: number | null = null,
  jmx: Jmx | null = null,
): string[] | null {
  const cp = zookeeperClasspath(dir, admin !== null);
  return cp ? zookeeperArgs(cp, zooCfg(dir, address, port, extra, admin), jmx ? jmxOptions(dir, jmx) : []) : null;
}

/** java arguments for ZooKeeperServerMain on that zoo.cfg, logging to the console, a small heap. */
export function zookeeperArgs(classpath: string, cfg: string, jvm: readonly string[] = []): string[] {
  return [
    ...jvm,
    '-Xmx96m',
    '-XX:TieredStopAtLevel=1',
    '-XX:+UseSerialGC',
    '-Dzookeeper.root.logger=INFO,CONSOLE',
    '-Dzookeeper.console.threshold=INFO',
    '-cp',
    classpath,
    'org.apache.zookeeper.server.ZooKeeperServerMain',
    cfg,
  ];
}

/** The three ZooKeepers of the tests and the bench: the default, every four-letter word open, and hardened. */
export const ZK_DEFAULT: readonly string[] = [];
export const ZK_OPEN_4LW: readonly string[] = ['4lw.commands.whitelist=*'];
export const ZK_HARDENED: readonly string[] = [
  '4lw.commands.whitelist=srvr',
  'enforce.auth.enabled=true',
  'enforce.auth.schemes=digest',
];
