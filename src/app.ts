import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forwardServer } from './forward/server.ts';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { serverLogger } from './log-format.ts';
import { Sessions } from './accounts/sessions.ts';
import type { Services } from './api/call.ts';
import { apiServer, plainServer } from './api/server.ts';
import { loadCertificate } from './api/tls.ts';
import { type Clock, systemClock } from './clock.ts';
import type { Config } from './config.ts';
import { openStore } from './store/open.ts';
import { Domains } from './dns/domains.ts';
import { Publisher } from './dns/publish.ts';
import { ZoneEdits } from './dns/zone-edits.ts';
import { CycleLoop } from './dns/cycle-loop.ts';
import { DnsCounters } from './dns/server/counters.ts';
import { NotifyPeers, notifyAll } from './dns/server/notify-peers.ts';
import { Metrics } from './metrics.ts';
import { scheduleMetrics } from './metrics-schedules.ts';
import { listenMetrics } from './metrics-server.ts';
import { SCRIPTS } from './api/scripts.ts';
import { NameServer } from './dns/server/name-server.ts';
import { ServingSet } from './dns/server/serving-set.ts';
import { SecondaryZones } from './dns/server/secondary.ts';
import { type DnsWorkers, startDnsWorkers } from './dns/server/workers.ts';
import { parsePeer } from './dns/server/transfer.ts';
import { DnsEgress } from './dns/egress.ts';
import { Audits } from './audit/service.ts';
import { Schedules } from './audit/schedules.ts';
import { auditWork } from './audit/queue-open.ts';
import type { Engine } from './audit/runner.ts';
import { join } from 'node:path';
import { ZoneSigner } from './dns/sign-pass.ts';
import { DnssecSettings } from './dns/dnssec-settings.ts';
import { ZoneHealth } from './dns/health/service.ts';
import { KeyEncryptionKey } from './dns/dnssec-kek.ts';
import { privateDataDir } from './data-dir.ts';

const fail = (message: string): never => {
  throw new Error(message);
};

export interface App {
  readonly services: Services;
  /** What the name server answers for; reloaded after each distribution cycle. */
  readonly serving: ServingSet;
  /** Listener name -> `host:port`, in the order of the ready line. */
  readonly listeners: Record<string, string>;
  /** Set when the certificate was made on this start. */
  readonly generatedCertificate: string | null;
  /** SIGHUP: the API certificate again from its files; open connections keep theirs. */
  reloadCertificate(): Promise<void>;
  close(): Promise<void>;
}

export interface AppOptions {
  clock?: Clock;
  logger?: Logger;
  /** Tests may replace the scan engine (e.g. to hold an audit in `running`). */
  engine?: Engine;
}

export { openStore };

function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Starts everything `vigil serve` runs, in one process. */
export async function startApp(config: Config, options: AppOptions = {}): Promise<App> {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? (await serverLogger(config.logLevel));
  privateDataDir(config.dataDir);
  const db = await openStore(config);
  // Before anything starts: a store whose DNSSEC keys this key cannot open is refused, never given a new key.
  const kekSource = new KeyEncryptionKey(config.dnssecKeyFile, db);
  await kekSource.check(logger).catch(async (err) => {
    await db.destroy();
    throw err;
  });
  const domains = new Domains(db, clock, config);
  const work = auditWork(db, clock, config, logger, options.engine);
  const { queue, runner } = work;
  const secondaries = config.secondaries.map((s) => parsePeer(s) ?? fail(`invalid --secondaries entry '${s}'`));
  const egress = new DnsEgress(config.dnsPeersAllow, secondaries);
  const serving = new ServingSet({
    forwardAddress: config.forwardPort !== 0 ? config.forwardAddress : null,
    catalogZone: config.catalogZone,
    secondaries,
    clock,
  });
  const metrics = config.metricsPort !== 0 ? new Metrics(new Set(Object.keys(SCRIPTS)), config.metricsZoneNames) : null;
  if (metrics) runner.onEnded = (e) => metrics.audit(e);
  // A dead NOTIFY target is held to one NOTIFY a round (notify-peers.ts); the thread fault hooks are the tests'.
  const notifyPeers = new NotifyPeers(logger, clock);
  const thread = (faultZone?: string) => ({ observer: metrics?.threads, faultZone });
  let workers: DnsWorkers | null = null;
  // Every change of what is served (our cycle, a slave copy, another process's
  // cycle or `admin distribute`) goes through the loop's refresh: new versions
  // into the name server, then NOTIFY (in the background) for those alone.
  const kek = kekSource.get;
  const cycles = new CycleLoop({
    db,
    clock,
    intervalMs: config.publishIntervalMs,
    logger,
    signer: new ZoneSigner(db, clock, {
      kek,
      forwardAddress: config.forwardPort !== 0 ? config.forwardAddress : null,
      intervalMs: config.publishIntervalMs,
      logger,
      thread: thread(config.threadFaultZones.sign),
    }),
    async apply() {
      const changed = await serving.load(db);
      workers?.reload();
      // "When is my change live?": the moment each new serial is answered (the catalog included).
      if (changed.length)
        logger.info(
          {
            served: Object.fromEntries(changed.slice(0, 20).map((z) => [z.zone, z.serial])),
            zones: changed.length,
            // What reloads cost so far (serving-set.ts ServingStats): bench/scale-zones.ts reads one change's share.
            reloads: serving.stats,
          },
          'dns: now serving',
        );
      if (changed.length) void notifyAll(changed, serving.secondaries, egress, logger, notifyPeers);
    },
    onCycle: (facts) => metrics?.cycle(facts),
  });
  const dnssec = new DnssecSettings(domains, kek);
  const health = new ZoneHealth(domains, {
    resolvers: config.resolvers,
    scanAllow: config.scanAllow,
    forwardAddress: config.forwardPort !== 0 ? config.forwardAddress : null,
  });
  health.onFailure = (id, err) => logger.error({ err, check: id }, 'zone health: a check failed');
  if (metrics) health.onFindings = (f) => metrics.zoneHealth(f);
  const audits = new Audits(
    db,
    clock,
    config.scanAllow,
    () => queue.wake(),
    (trx, id) => queue.enqueue(trx, id),
    { queued: config.auditQueueLimit, maxPorts: config.auditMaxPorts },
  );
  const services: Services = {
    config,
    clock,
    db,
    sessions: new Sessions(db, clock, config.sessionTtlMs),
    dns: {
      domains,
      edits: new ZoneEdits(domains, (d) => dnssec.ds(d)),
      publisher: new Publisher(domains, egress, health.hintPlan.bind(health), thread(config.threadFaultZones.publish)),
      dnssec,
      schedule: cycles,
      health,
    },
    audits,
    schedules: new Schedules(db, clock, audits, config.scheduleLimit),
    logger,
  };
  await work.start();
  await cycles.start(() => serving.load(db));
  // The publish thread ends with the cycles (both unref'd threads: this is for in-process restarts).
  const stopDistribution = () => Promise.all([cycles.stop(), services.dns.publisher.close()]);
  const slaves = new SecondaryZones(
    db,
    clock,
    () => cycles.refresh(),
    logger,
    egress,
    { maxRecords: config.maxZoneRecords, maxBytes: config.maxZoneBytes },
    (known) => workers?.slaves(known),
  );
  serving.notified = (zone, address) => slaves.notify(zone, address);
  slaves.start();
  let nameServer: NameServer | null = null;
  let forwarder: Server | null = null;
  let metricsListener: Server | null = null;
  // Neither has a reply worth waiting for at shutdown: slow and idle connections are cut, not waited out.
  const closeAll = (server: Server | null) =>
    new Promise<void>((res) => {
      if (!server) return res();
      server.close(() => res());
      server.closeAllConnections();
    });
  const closeMetrics = () => closeAll(metricsListener);
  const dnsCounters = new DnsCounters();
  metrics?.attach({
    dns: dnsCounters,
    notify: notifyPeers.stats,
    slaves: slaves.stats,
    nextCycleAt: () => cycles.nextAt(),
    audits: () => queue.depth(),
    servedSerials: () => serving.serials(),
    reloads: () => serving.stats,
  });
  if (metrics) scheduleMetrics(metrics.registry, db, clock);
  const closeForwarder = () => closeAll(forwarder);
  const servers: FastifyInstance[] = [];
  const listeners: Record<string, string> = {};
  let generatedCertificate: string | null = null;
  let api: FastifyInstance | null = null;
  try {
    if (config.httpsPort !== 0) {
      const tls = await loadCertificate(config.dataDir, config.listen, config.tlsCert, config.tlsKey);
      generatedCertificate = tls.generated;
      api = apiServer(services, logger, tls, metrics ?? undefined);
      servers.push(api);
      await api.listen({ host: config.listen, port: config.httpsPort });
      listeners.https = hostPort(config.listen, (api.server.address() as AddressInfo).port);
    }
    if (config.httpPort !== 0) {
      const plain = plainServer(logger, config, metrics ?? undefined);
      servers.push(plain);
      await plain.listen({ host: config.listen, port: config.httpPort });
      listeners.http = hostPort(config.listen, (plain.server.address() as AddressInfo).port);
    }
    if (config.dnsPort !== 0 && config.dnsWorkers > 1) {
      workers = await startDnsWorkers(
        config,
        config.dnsWorkers,
        (zone, address) => slaves.notify(zone, address),
        logger,
        dnsCounters,
      );
      listeners.dns = hostPort(config.listen, workers.port);
    } else if (config.dnsPort !== 0) {
      nameServer = new NameServer(serving, logger, config, dnsCounters, clock);
      listeners.dns = hostPort(config.listen, await nameServer.listen(config.listen, config.dnsPort));
    }
    if (config.forwardPort !== 0) {
      const server = forwardServer(serving, logger, config);
      forwarder = server;
      await new Promise<void>((res, rej) =>
        server.once('error', rej).listen(config.forwardPort, config.listen, () => res()),
      );
      listeners.forward = hostPort(config.listen, (server.address() as AddressInfo).port);
    }
    if (metrics) {
      const { server, address } = await listenMetrics(metrics, db, logger, config);
      metricsListener = server;
      listeners.metrics = address;
    }
  } catch (err) {
    await work.stop();
    await slaves.stop();
    await workers?.close();
    await nameServer?.close();
    await closeForwarder();
    await closeMetrics();
    await stopDistribution();
    await Promise.allSettled(servers.map((s) => s.close()));
    await db.destroy();
    throw err;
  }
  return {
    services,
    serving,
    listeners,
    generatedCertificate,
    async reloadCertificate() {
      if (!api) return;
      const file = config.tlsCert ?? join(config.dataDir, 'tls', 'cert.pem');
      try {
        const tls = await loadCertificate(config.dataDir, config.listen, config.tlsCert, config.tlsKey);
        // Node builds the new context first (a key that does not fit the
        // certificate throws here, and the old one stays); handshakes from
        // now on use it, while connections already open keep their session.
        (api.server as import('node:https').Server).setSecureContext({ cert: tls.cert, key: tls.key });
        logger.info({ cert: file, generated: tls.generated !== null }, 'API certificate reloaded');
      } catch (err) {
        logger.error({ err, cert: file }, 'API certificate not reloaded; the previous one stays');
      }
    },
    async close() {
      // Fastify's close stops accepting and waits for in-flight requests.
      await Promise.allSettled(servers.map((s) => s.close()));
      await work.stop();
      await slaves.stop();
      await workers?.close();
      await nameServer?.close();
      await closeForwarder();
      await closeMetrics();
      await stopDistribution();
      await db.destroy();
      logger.flush?.();
    },
  };
}
