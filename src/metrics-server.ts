import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Config } from './config.ts';
import { capHttpConnections, serverOptions, type TransportLimits } from './net/http-limits.ts';
import type { Db } from './store/db.ts';

/** A health check slower than this counts as a store that does not answer. */
const HEALTH_TIMEOUT_MS = 2000;

/** true when the store answers a trivial query in time (the same statement on SQLite and PostgreSQL). */
async function storeAnswers(db: Db): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((res) => (timer = setTimeout(() => res(false), HEALTH_TIMEOUT_MS)));
  const query = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([query, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `--metrics-port`: plain HTTP, GET /metrics (Prometheus text) and
 * /healthz (200 `ok`, or 503 when the store does not answer). Separate from
 * the API, on its own address (`--metrics-listen`, loopback by default), so
 * that it can be firewalled apart and scraped without TLS. It has the API's
 * slow-client limits (issue 28: it had none): the request budget, the
 * per-address cap and a total that sheds the connection longest unserved;
 * a scrape or health check in progress is never shed.
 */
export function metricsServer(
  metrics: { registry: Registry },
  db: Db,
  logger: Logger,
  limits: TransportLimits,
): Server {
  const server = createServer(serverOptions(limits), (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/healthz') {
      void storeAnswers(db).then((ok) => {
        res
          .writeHead(ok ? 200 : 503, { 'content-type': 'text/plain; charset=utf-8' })
          .end(ok ? 'ok\n' : 'store not answering\n');
      });
    } else if (path === '/metrics') {
      metrics.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
        (err) => {
          logger.error({ err }, 'metrics: collecting failed');
          res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n');
        },
      );
    } else res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
  });
  capHttpConnections(server, limits, logger, 'metrics');
  return server;
}

/**
 * Opens the metrics listener on `--metrics-listen`:`--metrics-port` (serve and worker); resolves once it
 * listens, with its `host:port` for the ready line.
 */
export async function listenMetrics(
  metrics: { registry: Registry },
  db: Db,
  logger: Logger,
  config: TransportLimits & Pick<Config, 'metricsListen' | 'metricsPort'>,
): Promise<{ server: Server; address: string }> {
  const server = metricsServer(metrics, db, logger, config);
  await new Promise<void>((res, rej) =>
    server.once('error', rej).listen(config.metricsPort, config.metricsListen, () => res()),
  );
  const { address, port } = server.address() as AddressInfo;
  return { server, address: address.includes(':') ? `[${address}]:${port}` : `${address}:${port}` };
}
