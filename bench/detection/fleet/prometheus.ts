/**
 * The Prometheus stack, Debian's packages: prometheus (2.42), the
 * Pushgateway (1.5) and Alertmanager (0.25). Each weak one answers anyone
 * (Prometheus and the Pushgateway with --web.enable-admin-api and
 * --web.enable-lifecycle too); each twin runs the same daemon behind
 * exporter-toolkit's web.config: basic_auth_users (bcrypt) over TLS with
 * HSTS (Basic over plain HTTP would be a weakness of its own), Prometheus's
 * twin without the admin and lifecycle flags. Prometheus scrapes loopback
 * addresses only (a host name would be a DNS query off the machine), once
 * an hour. Alertmanager's gossip listener (memberlist, 9094) is on its own
 * address, in the clear on the weak one, behind mutual TLS
 * (--cluster.tls-config) on the twin.
 */
import { join } from 'node:path';
import { benchCaCert, leaf } from '../certs.ts';
import { addr, none, type Ctx, type Daemon, type Weakness } from './kit.ts';
import { exporterWebConfig } from './monitoring.ts';

const PK = 105;
const GK = 106;
const AK = 107;

/**
 * Without these, the gossip listener's Go 1.19 TLS accepts TLS 1.0 and 3DES (measured in the bench: the twin
 * was flagged for both); exporter-toolkit's web listener has TLS 1.2 from min_version already.
 */
const GCM = ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384'];

/** Mutual TLS for Alertmanager's gossip (--cluster.tls-config): the bench CA's leaf, client certificates required. */
async function clusterTls(ctx: Ctx, address: string, dir: string): Promise<string> {
  const pem = await leaf(address);
  const cert = ctx.write(join(dir, 'gossip-cert.pem'), pem.cert);
  const key = ctx.write(join(dir, 'gossip-key.pem'), pem.key, 0o600);
  const ca = ctx.write(join(dir, 'gossip-ca.pem'), await benchCaCert());
  const server = `tls_server_config:\n  cert_file: ${cert}\n  key_file: ${key}\n  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ${ca}\n  min_version: TLS12\n  cipher_suites: [${GCM.join(', ')}]`;
  const client = `tls_client_config:\n  cert_file: ${cert}\n  key_file: ${key}\n  ca_file: ${ca}`;
  return ctx.write(join(dir, 'cluster-tls.yml'), `${server}\n${client}\n`);
}

/** The weaknesses of one weak address: [id, label, the check that must report it]. */
const planted = (kind: string, address: string, port: number, rows: [string, string, RegExp][]): Weakness[] =>
  rows.map(([id, label, check]) => ({
    id,
    family: 'auth',
    label,
    daemon: kind,
    address,
    port,
    proto: 'tcp',
    vigil: { id: check },
    nmap: none,
  }));

/** The weak instance, then its twin, each with a directory of its own. */
async function weakThenTwin(
  ctx: Ctx,
  weak: string,
  twin: string,
  start: (address: string, open: boolean, dir: string) => Promise<void>,
): Promise<void> {
  for (const [address, open] of [
    [weak, true],
    [twin, false],
  ] as const)
    await start(address, open, ctx.dir(address));
}

/** Each component's own /metrics, which the generic exposition check finds. */
const METRICS = /^vigil\.http\.metrics-exposed$/;

const P = (n: number) => addr(PK, n);
export const PROMETHEUS: Daemon = {
  kind: 'prometheus',
  binaries: ['prometheus', 'htpasswd'],
  ports: { tcp: [9090], udp: [] },
  weaknesses: [
    ...planted('prometheus', P(1), 9090, [
      [
        'prometheus-api-open',
        'Prometheus API open to anyone (configuration, targets)',
        /^vigil\.prometheus\.api-open$/,
      ],
      [
        'prometheus-admin-api',
        'Prometheus TSDB admin API enabled and open (--web.enable-admin-api)',
        /^vigil\.prometheus\.admin-api$/,
      ],
      ['prometheus-lifecycle', 'Prometheus /-/quit open (--web.enable-lifecycle)', /^vigil\.prometheus\.lifecycle$/],
      ['prometheus-metrics', "Prometheus's own /metrics open to anyone", METRICS],
    ]),
  ],
  twins: [
    { address: P(100), note: 'web.config basic_auth_users (bcrypt) over TLS with HSTS; no admin or lifecycle flags' },
  ],
  start: (ctx) =>
    weakThenTwin(ctx, P(1), P(100), async (address, open, dir) => {
      const conf = ctx.write(
        join(dir, 'prometheus.yml'),
        [
          'global:\n  scrape_interval: 1h',
          'scrape_configs:',
          `  - job_name: internal-db\n    basic_auth:\n      username: scraper\n      password: bench-scrape-not-a-secret\n    static_configs:\n      - targets: ['${P(60)}:9100']`,
          `  - job_name: api\n    bearer_token: bench-token-not-a-secret\n    static_configs:\n      - targets: ['${P(61)}:9100']`,
        ].join('\n'),
      );
      const args = [
        `--config.file=${conf}`,
        `--storage.tsdb.path=${join(dir, 'tsdb')}`,
        `--web.listen-address=${address}:9090`,
        ...(open
          ? ['--web.enable-admin-api', '--web.enable-lifecycle']
          : [`--web.config.file=${await exporterWebConfig(ctx, address, dir)}`]),
      ];
      const child = ctx.spawn(`prometheus-${address}`, 'prometheus', args);
      await ctx.waitTcp(address, 9090, child, 30_000);
    }),
};

const G = (n: number) => addr(GK, n);
export const PUSHGATEWAY: Daemon = {
  kind: 'pushgateway',
  binaries: ['prometheus-pushgateway', 'htpasswd'],
  ports: { tcp: [9091], udp: [] },
  weaknesses: [
    ...planted('pushgateway', G(1), 9091, [
      ['pushgateway-open', 'Pushgateway open to anyone (status, metric groups)', /^vigil\.pushgateway\.open$/],
      ['pushgateway-write', 'Pushgateway accepts pushes and deletes from anyone', /^vigil\.pushgateway\.write$/],
      ['pushgateway-admin-api', 'Pushgateway admin API (wipe) enabled and open', /^vigil\.prometheus\.admin-api$/],
      ['pushgateway-lifecycle', 'Pushgateway /-/quit open (--web.enable-lifecycle)', /^vigil\.prometheus\.lifecycle$/],
      ['pushgateway-metrics', "Pushgateway's /metrics open to anyone", METRICS],
    ]),
  ],
  twins: [{ address: G(100), note: 'web.config basic_auth_users (bcrypt) over TLS with HSTS' }],
  start: (ctx) =>
    weakThenTwin(ctx, G(1), G(100), async (address, open, dir) => {
      const args = [
        `--web.listen-address=${address}:9091`,
        // Debian's default is /var/lib/prometheus/pushgateway.data.
        `--persistence.file=${join(dir, 'pushgateway.data')}`,
        ...(open
          ? ['--web.enable-admin-api', '--web.enable-lifecycle']
          : [`--web.config.file=${await exporterWebConfig(ctx, address, dir)}`]),
      ];
      const child = ctx.spawn(`pushgateway-${address}`, 'prometheus-pushgateway', args);
      await ctx.waitTcp(address, 9091, child);
    }),
};

const A = (n: number) => addr(AK, n);
export const ALERTMANAGER: Daemon = {
  kind: 'alertmanager',
  binaries: ['prometheus-alertmanager', 'htpasswd'],
  ports: { tcp: [9093, 9094], udp: [] },
  weaknesses: [
    ...planted('alertmanager', A(1), 9093, [
      ['alertmanager-open', 'Alertmanager open to anyone (configuration, silences)', /^vigil\.alertmanager\.open$/],
      ['alertmanager-silence', 'Alertmanager accepts silences from anyone', /^vigil\.alertmanager\.silence$/],
      ['alertmanager-metrics', "Alertmanager's /metrics open to anyone", METRICS],
    ]),
    ...planted('alertmanager', A(1), 9094, [
      [
        'alertmanager-gossip',
        'Alertmanager cluster gossip port (memberlist) open in the clear',
        /^vigil\.memberlist\.open$/,
      ],
    ]),
  ],
  twins: [
    {
      address: A(100),
      note: 'web.config basic_auth_users (bcrypt) over TLS with HSTS; gossip behind mutual TLS (--cluster.tls-config)',
    },
  ],
  start: (ctx) =>
    weakThenTwin(ctx, A(1), A(100), async (address, open, dir) => {
      const conf = ctx.write(
        join(dir, 'alertmanager.yml'),
        [
          `global:\n  smtp_smarthost: '${A(60)}:587'\n  smtp_from: 'am@example.org'`,
          "  smtp_auth_username: am\n  smtp_auth_password: 'bench-smtp-not-a-secret'",
          'route:\n  receiver: ops',
          `receivers:\n  - name: ops\n    webhook_configs:\n      - url: 'http://${A(61)}/hooks/bench-token-not-a-secret'`,
        ].join('\n'),
      );
      const args = [
        `--config.file=${conf}`,
        `--storage.path=${join(dir, 'data')}`,
        `--web.listen-address=${address}:9093`,
        // The gossip listener on, in the clear (Debian's default, on 0.0.0.0) or behind mutual TLS.
        `--cluster.listen-address=${address}:9094`,
        `--cluster.advertise-address=${address}:9094`,
        ...(open
          ? []
          : [
              `--web.config.file=${await exporterWebConfig(ctx, address, dir)}`,
              `--cluster.tls-config=${await clusterTls(ctx, address, dir)}`,
            ]),
      ];
      const child = ctx.spawn(`alertmanager-${address}`, 'prometheus-alertmanager', args);
      await ctx.waitTcp(address, 9093, child);
      await ctx.waitTcp(address, 9094, child);
    }),
};
