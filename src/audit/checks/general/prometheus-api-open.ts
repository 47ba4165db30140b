import { defineCheck } from '../kit.ts';
import { asRecord } from '../../proto/http-json.ts';
import { envelope, promGet, runningFlags } from '../../proto/prometheus.ts';
import { shown } from '../../proto/talk.ts';
import { listed, secretsNote, summarizeConfig } from './lib/monitoring-config.ts';
import { promStackCandidate, STACK_PORTS, tlsOf } from './lib/prometheus-stack.ts';

/**
 * Prometheus's HTTP API answering anyone (and every server that copies it:
 * Thanos, Cortex, Mimir): GET /api/v1/status/config hands out the whole
 * configuration (every scrape job, service-discovery endpoint and the
 * credential fields it holds, which Prometheus prints as <secret>), GET
 * /api/v1/targets the map of every monitored host with its address and
 * labels, and the same API runs any PromQL query over every metric. A
 * HOLE, medium: missing authentication on a service that holds data, as
 * for an open data store, but a read (writes and shutdown are the admin
 * and lifecycle checks' findings, high and medium).
 */
export default defineCheck({
  id: 'vigil.prometheus.api-open',
  shortid: 'PROMETHEUS-OPEN',
  title: 'Prometheus API open to anyone (configuration, targets, queries)',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'medium',
  type: 'HOLE',
  qod: 99,
  description:
    "Prometheus's HTTP API answered without credentials: anyone who reaches it reads the whole configuration (scrape jobs, internal host names, service-discovery endpoints, and which jobs carry passwords or tokens), the list of every monitored target with its address, and any metric through PromQL queries, which maps the internal network and its software; heavy queries can also load the server.",
  solution:
    'Require authentication on every path (exporter-toolkit web.config: basic_auth_users with bcrypt hashes, over TLS with tls_server_config, passed with --web.config.file), or bind --web.listen-address to loopback behind an authenticating proxy, and let only monitoring hosts reach the port.',
  references: [
    'https://prometheus.io/docs/prometheus/latest/querying/api/',
    'https://prometheus.io/docs/prometheus/latest/configuration/https/',
  ],
  ports: { ports: STACK_PORTS, where: promStackCandidate },
  run: async ({ net, port, service }) => {
    const tls = tlsOf(service);
    const parts: string[] = [];
    const config = asRecord(envelope(await promGet(net, port, tls, '/api/v1/status/config')));
    if (typeof config?.yaml === 'string' && /^(?:global|scrape_configs):/m.test(config.yaml)) {
      const c = summarizeConfig(config.yaml, 'job_name');
      parts.push(
        `GET /api/v1/status/config gave the configuration (${config.yaml.length} bytes): scrape jobs ${shown(listed(c.names), 160)}${secretsNote(c.secrets)}`,
      );
    }
    const targets = asRecord(envelope(await promGet(net, port, tls, '/api/v1/targets')));
    if (Array.isArray(targets?.activeTargets)) {
      const urls = targets.activeTargets.map((t) => String(asRecord(t)?.scrapeUrl ?? '')).filter(Boolean);
      parts.push(`GET /api/v1/targets listed ${urls.length} active target(s): ${shown(listed(urls, 4), 240)}`);
    }
    if (!parts.length) return null;
    const flags = await runningFlags(net, port, tls);
    const who =
      flags?.product === 'Prometheus'
        ? `Prometheus${flags.version ? ` ${shown(flags.version, 24)}` : ''}`
        : 'The server';
    const f =
      flags?.product === 'Prometheus'
        ? `; ${flags.via} gave its ${Object.keys(flags.flags).length} command-line flags`
        : '';
    return `${who} answered without credentials: ${parts.join('; ')}${f}.`;
  },
});
