import cluster, { type Worker } from 'node:cluster';
import { createServer, type Socket } from 'node:net';
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { type Config, buildConfig } from '../../config.ts';
import { openStore } from '../../store/open.ts';
import { NameServer } from './name-server.ts';
import { ServingSet } from './serving-set.ts';
import { parsePeer } from '../peers.ts';
import { DnsCounters, type DnsCountsSnapshot } from './counters.ts';
import { type CapClosed, closedBy, clientKey, reportClosed } from '../../net/connection-cap.ts';

/** Messages between the main process and its name-server workers. */
type ToWorker = { reload: true } | { slaves: [string, string[]][] } | { bind: number } | { tcp: true };
type FromWorker =
  | { loaded: true }
  | { ready: number }
  | { notify: { zone: string; address: string } }
  | { counts: DnsCountsSnapshot; closed?: CapClosed };
/** How often a worker reports its counters to the main process (the metrics are this fresh). */
const COUNTS_EVERY_MS = 1000;

const CONFIG_ENV = 'VIGIL_DNS_WORKER_CONFIG';
const INDEX_ENV = 'VIGIL_DNS_WORKER_INDEX';
const BIN = resolve(import.meta.dirname, '../../../bin/vigil');

export interface DnsWorkers {
  readonly port: number;
  reload(): void;
  /** Who may NOTIFY which slave zone: zone -> master addresses. */
  slaves(list: [string, string[]][]): void;
  close(): Promise<void>;
}

/**
 * The worker that serves a DNS-over-TCP client: one client (clientKey: an
 * IPv4 address, an IPv6 /64) always goes to the same worker, so that
 * worker's per-address cap is the client's whole cap. Before, the workers
 * shared node's cluster TCP handle, whose round robin spread one client's
 * connections over every worker, each counting only its own: one address
 * held N x --max-connections-per-ip (16 at a cap of 8 and two workers,
 * test/slowloris.test.ts; docs/security.md). FNV-1a: a cheap, even spread
 * of the keys. The pick need not be secret: many addresses aimed at one
 * worker meet that worker's total and its shedding, as they would meet a
 * single process's.
 */
export function workerOf(client: string, count: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < client.length; i++) h = Math.imul(h ^ client.charCodeAt(i), 0x01000193);
  return (h >>> 0) % count;
}

/**
 * Several name-server processes on one port. UDP: each binds its own
 * sockets (udp-fast.ts) or shares node's cluster handle; the kernel spreads
 * the queries. TCP: this process accepts and hands each connection to its
 * client's worker (workerOf), as the cluster's round robin handed them on
 * before, at the same cost (one descriptor passed over the IPC channel).
 * Each worker loads the serving set from the store and reloads it when
 * told, after every distribution cycle or slave transfer.
 */
export async function startDnsWorkers(
  config: Config,
  count: number,
  onNotify: (zone: string, address: string) => void,
  logger: Logger,
  counters?: DnsCounters,
): Promise<DnsWorkers> {
  cluster.setupPrimary({ exec: BIN, args: ['dns-worker'], silent: false });
  const workers: Worker[] = [];
  // Bound first: the workers bind UDP on its port (port 0 picks one for both, as a single NameServer does).
  let ready = false;
  const early: Socket[] = [];
  const tcp = createServer({ pauseOnConnect: true }, (socket) => (ready ? handOff(socket) : early.push(socket)));
  const handOff = (socket: Socket) => {
    const alive = workers.filter((w) => w.isConnected());
    const worker = alive[workerOf(clientKey(socket.remoteAddress), alive.length)];
    socket.on('error', () => {});
    if (!worker) return void socket.destroy();
    worker.send({ tcp: true } satisfies ToWorker, socket, (err) => err && socket.destroy());
  };
  await new Promise<void>((res, rej) => tcp.once('error', rej).listen(config.dnsPort, config.listen, () => res()));
  const tcpPort = (tcp.address() as { port: number }).port;
  const loaded: Promise<void>[] = [];
  const ports: Promise<number>[] = [];
  for (let i = 0; i < count; i++) {
    const worker = cluster.fork({ [CONFIG_ENV]: JSON.stringify(config), [INDEX_ENV]: String(i) });
    workers.push(worker);
    const exited = new Promise<never>((_, rej) =>
      worker.once('exit', (code) => rej(new Error(`dns worker exited with ${code}`))),
    );
    exited.catch(() => undefined);
    let isLoaded: () => void;
    let isReady: (port: number) => void;
    loaded.push(Promise.race([new Promise<void>((res) => (isLoaded = res)), exited]));
    ports.push(Promise.race([new Promise<number>((res) => (isReady = res)), exited]));
    worker.on('message', (m: FromWorker) => {
      if ('loaded' in m) isLoaded();
      else if ('ready' in m) isReady(m.ready);
      else if ('notify' in m) onNotify(m.notify.zone, m.notify.address);
      else if ('counts' in m && worker.process.pid) {
        counters?.workers.set(worker.process.pid, m.counts);
        // Its DNS-over-TCP caps' counts: vigil_connections_closed_total adds them to this process's.
        if (m.closed) reportClosed(`dns-worker-${worker.process.pid}`, 'dns-tcp', m.closed);
      }
    });
  }
  let closing = false;
  for (const w of workers)
    w.on('exit', (code) => closing || logger.error({ code, pid: w.process.pid }, 'dns worker exited'));
  // Loaded side by side; bound one after another, so worker i's sockets are the group's i-th (udp-fast.ts
  // udpPlan: under CPU steering each thread then runs on the CPU whose datagrams its socket gets).
  try {
    for (let i = 0; i < count; i++) {
      await loaded[i];
      workers[i]!.send({ bind: tcpPort } satisfies ToWorker);
      await ports[i];
    }
  } catch (err) {
    tcp.close();
    for (const socket of early) socket.destroy();
    throw err;
  }
  const [port] = await Promise.all(ports);
  ready = true;
  early.splice(0).forEach(handOff);
  const send = (m: ToWorker) => workers.forEach((w) => w.isConnected() && w.send(m));
  return {
    port: port!,
    reload: () => send({ reload: true }),
    slaves: (list) => send({ slaves: list }),
    async close() {
      closing = true;
      tcp.close();
      await Promise.all(
        workers.map(
          (w) => new Promise<void>((res) => (w.isDead() ? res() : (w.once('exit', () => res()), w.kill('SIGTERM')))),
        ),
      );
    },
  };
}

/** The worker side (`bin/vigil dns-worker`, started only by startDnsWorkers). */
export async function runDnsWorker(logger: Logger): Promise<void> {
  const config = buildConfig(JSON.parse(process.env[CONFIG_ENV] ?? '{}') as Partial<Config>);
  const db = await openStore(config);
  const serving = new ServingSet({
    forwardAddress: config.forwardPort !== 0 ? config.forwardAddress : null,
    catalogZone: config.catalogZone,
    secondaries: config.secondaries.map((s) => parsePeer(s)).filter((p) => p !== null),
  });
  let slaves = new Map<string, string[]>();
  // The main process decides; the worker answers at once from what it was last told.
  serving.notified = (zone, address) => {
    const ok = slaves.get(zone)?.includes(address) ?? false;
    if (ok) process.send?.({ notify: { zone, address } } satisfies FromWorker);
    return ok;
  };
  await serving.load(db);
  // Loaded: bind when the main process says, on the port it gave (the workers bind in turn, startDnsWorkers).
  const bind = new Promise<number>((res) => process.on('message', (m: ToWorker) => 'bind' in m && res(m.bind)));
  process.send?.({ loaded: true } satisfies FromWorker);
  const dnsPort = await bind;
  // The TCP limits travel in the config: each worker process caps its own connections.
  const counters = new DnsCounters();
  const server = new NameServer(
    serving,
    logger,
    { ...config, dnsWorker: Number(process.env[INDEX_ENV] ?? 0) },
    counters,
  );
  // UDP only: the main process accepts DNS over TCP and hands each connection over (startDnsWorkers).
  const port = await server.listen(config.listen, dnsPort, false);
  // Plain numbers over IPC, once a second: the main process's metrics add them up.
  setInterval(
    () => process.send?.({ counts: counters.snapshot(), closed: closedBy('dns-tcp') } satisfies FromWorker),
    COUNTS_EVERY_MS,
  ).unref();
  process.on('message', (m: ToWorker, handle?: unknown) => {
    if ('tcp' in m && handle) server.serveTcp(handle as Socket);
    else if ('reload' in m) serving.load(db).catch((err) => logger.error({ err }, 'dns worker: reload failed'));
    else if ('slaves' in m) slaves = new Map(m.slaves);
  });
  process.on('SIGTERM', async () => {
    await server.close();
    await db.destroy();
    process.exit(0);
  });
  process.send?.({ ready: port } satisfies FromWorker);
}
