/**
 * Monitoring endpoints. Debian prometheus-node-exporter: metrics open to
 * anyone vs behind basic auth over TLS with HSTS, as the exporter docs
 * advise (exporter-toolkit web.config: Basic over plain HTTP would be a
 * weakness of its own). Debian
 * lighttpd: mod_status open vs limited to an admin address (404 for the
 * scanner). Keyed on formats, so the checks cover other exporters and
 * servers writing the same pages.
 */
import { join } from 'node:path';
import { haproxyStatsConf } from '../../../test/helpers/proxy-configs.ts';
import { leaf } from '../certs.ts';
import { addr, none, script, type Ctx, type Daemon } from './kit.ts';

/**
 * exporter-toolkit's web.config for a hardened twin (node_exporter, Prometheus, the Pushgateway,
 * Alertmanager): TLS 1.2+ with the bench CA's leaf for `address`, HSTS, one bcrypt user.
 */
export async function exporterWebConfig(ctx: Ctx, address: string, dir: string): Promise<string> {
  const hash = ctx.run('htpasswd', ['-nbBC', '10', 'prom', 'bench-P3m-not-a-secret']).trim().split(':')[1];
  const pem = await leaf(address);
  const cert = ctx.write(join(dir, 'cert.pem'), pem.cert);
  const key = ctx.write(join(dir, 'key.pem'), pem.key, 0o600);
  const web = [
    `tls_server_config:\n  cert_file: ${cert}\n  key_file: ${key}\n  min_version: TLS12`,
    'http_server_config:\n  headers:\n    Strict-Transport-Security: max-age=31536000',
    `basic_auth_users:\n  prom: '${hash}'`,
  ];
  return ctx.write(join(dir, 'web.yml'), `${web.join('\n')}\n`);
}

const EK = 23;
const E = (n: number) => addr(EK, n);
export const NODE_EXPORTER: Daemon = {
  kind: 'node-exporter',
  binaries: ['prometheus-node-exporter', 'htpasswd'],
  ports: { tcp: [9100], udp: [] },
  weaknesses: [
    {
      id: 'metrics-open',
      family: 'web',
      label: 'Prometheus metrics open to anyone (node_exporter without web.config)',
      daemon: 'node-exporter',
      address: E(1),
      port: 9100,
      proto: 'tcp',
      vigil: { id: /^vigil\.http\.metrics-exposed$/ },
      nmap: none,
    },
  ],
  twins: [{ address: E(100), note: 'basic_auth_users (bcrypt) and TLS with HSTS in web.config' }],
  async start(ctx) {
    for (const [address, auth] of [
      [E(1), false],
      [E(100), true],
    ] as const) {
      const dir = ctx.dir(address);
      const args = [`--web.listen-address=${address}:9100`, '--collector.disable-defaults', '--collector.loadavg'];
      if (auth) args.push(`--web.config.file=${await exporterWebConfig(ctx, address, dir)}`);
      const child = ctx.spawn(`node-exporter-${address}`, 'prometheus-node-exporter', args);
      await ctx.waitTcp(address, 9100, child);
    }
  },
};

const LK = 24;
const L = (n: number) => addr(LK, n);
export const LIGHTTPD: Daemon = {
  kind: 'lighttpd',
  binaries: ['lighttpd'],
  ports: { tcp: [80], udp: [] },
  weaknesses: [
    {
      id: 'lighttpd-server-status',
      family: 'web',
      label: 'lighttpd mod_status open to anyone',
      daemon: 'lighttpd',
      address: L(1),
      port: 80,
      proto: 'tcp',
      vigil: { id: /^vigil\.http\.server-status$/ },
      nmap: script('http-enum', /server-status/i),
    },
  ],
  twins: [{ address: L(100), note: 'status.status-url only for an admin address ($HTTP["remoteip"])' }],
  async start(ctx) {
    for (const [address, open] of [
      [L(1), true],
      [L(100), false],
    ] as const) {
      const dir = ctx.dir(address);
      ctx.write(join(dir, 'www', 'index.html'), '<html><body>bench site</body></html>');
      const status = 'status.status-url = "/server-status"';
      const conf = ctx.write(
        join(dir, 'lighttpd.conf'),
        [
          `server.document-root = "${dir}/www"`,
          `server.bind = "${address}"`,
          'server.port = 80',
          'server.modules = ("mod_status")',
          'index-file.names = ("index.html")',
          open ? status : `$HTTP["remoteip"] == "192.0.2.10" { ${status} }`,
        ].join('\n'),
      );
      const child = ctx.spawn(`lighttpd-${address}`, 'lighttpd', ['-D', '-f', conf]);
      await ctx.waitTcp(address, 80, child);
    }
  },
};

/**
 * Debian haproxy: the stats page at its default URI open to anyone vs
 * denied to all but an admin network (stats http-request deny: a 403, and
 * no Basic password over plain HTTP, which would be a weakness of its own).
 */
const HK = 27;
const H = (n: number) => addr(HK, n);
export const HAPROXY: Daemon = {
  kind: 'haproxy',
  binaries: ['haproxy'],
  ports: { tcp: [8080], udp: [] },
  weaknesses: [
    {
      id: 'haproxy-stats',
      family: 'web',
      label: 'HAProxy statistics page open to anyone (stats uri)',
      daemon: 'haproxy',
      address: H(1),
      port: 8080,
      proto: 'tcp',
      vigil: { id: /^vigil\.http\.status-page$/ },
      nmap: none,
    },
  ],
  twins: [{ address: H(100), note: 'stats http-request deny unless the admin network' }],
  async start(ctx) {
    for (const [address, open] of [
      [H(1), true],
      [H(100), false],
    ] as const) {
      const conf = ctx.write(
        join(ctx.dir(address), 'haproxy.cfg'),
        haproxyStatsConf(address, 8080, open ? [] : ['stats http-request deny unless { src 192.0.2.0/24 }']),
      );
      const child = ctx.spawn(`haproxy-${address}`, 'haproxy', ['-db', '-f', conf]);
      await ctx.waitTcp(address, 8080, child);
    }
  },
};
