import type { Logger } from 'pino';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../store/db.ts';
import { type DnsEgress, peerText } from '../egress.ts';
import { parsePeer, type Peer } from '../peers.ts';
import { slaveDomains } from '../zone-store/domains.ts';
import { writePublication } from '../zone-store/publications.ts';
import { recordOfType, replaceTransferred, zoneRecords } from '../zone-store/records.ts';
import type { ZoneModel, ZoneRecord } from '../zone.ts';
import { fromWire } from './from-wire.ts';
import { axfr, querySoaSerial, type TransferCaps } from './wire-client.ts';
import { WIRE } from '../rr/wire-names.ts';

const TICK_MS = 1000;
const FIRST_RETRY_MS = 30_000;

interface SlaveZone {
  id: number;
  zone: string;
  serial: number;
  masters: Peer[];
}

/**
 * Slave domains: Vigil as the secondary. Each zone is transferred (AXFR)
 * from its masters when it has no copy, when the SOA refresh timer runs
 * out and the master's serial is higher, and at once on a NOTIFY from one
 * of its masters. A new copy is served at once (no distribution cycle: the
 * master decided when to publish) and shown read-only in the records reply.
 */
export class SecondaryZones {
  private readonly due = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  /** The slave zones as of the last tick, so a NOTIFY is answered without waiting on the store. */
  private known: SlaveZone[] = [];
  private running: Promise<void> = Promise.resolve();
  /** Transfers from masters that were stored, and those that failed; read by the metrics. */
  readonly stats = { transfers: 0, failures: 0 };

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly onNewCopy: () => Promise<void>,
    private readonly logger: Logger,
    /** Masters outside it are never sent a packet (docs/security.md). */
    private readonly egress: DnsEgress,
    /** The zone caps: a larger copy is refused while it arrives. */
    private readonly caps: TransferCaps,
    /** Told the slave zones and their master addresses after every tick (for NOTIFY checks elsewhere). */
    private readonly onKnown: (list: [string, string[]][]) => void = () => {},
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running = this.running
        .then(() => this.tick())
        .catch((err) => this.logger.error({ err }, 'dns: secondary refresh failed'));
    }, TICK_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** A NOTIFY for `zone` from `address`: refresh at the next tick if it is one of the zone's masters. */
  notify(zone: string, address: string): boolean {
    const slave = this.known.find((s) => s.zone === zone);
    if (!slave || !slave.masters.some((m) => m.address === address)) return false;
    this.due.set(zone, 0);
    return true;
  }

  private async slaves(): Promise<SlaveZone[]> {
    return (await slaveDomains(this.db)).map((r) => ({
      id: r.id,
      zone: r.name,
      serial: Number(r.serial),
      masters: String(JSON.parse(r.options).masters ?? '')
        .split(',')
        .filter(Boolean)
        .map((m) => parsePeer(m))
        .filter((p): p is Peer => p !== null),
    }));
  }

  /** One pass: refresh every slave zone that is due. */
  async tick(): Promise<void> {
    const now = this.clock.now();
    this.known = await this.slaves();
    this.onKnown(this.known.map((s) => [s.zone, s.masters.map((m) => m.address)]));
    for (const slave of this.known) {
      if ((this.due.get(slave.zone) ?? 0) > now || !slave.masters.length) continue;
      this.due.set(slave.zone, now + (await this.refresh(slave)));
    }
  }

  /** Transfers the zone if a master has a newer serial; returns ms until the next check. */
  private async refresh(slave: SlaveZone): Promise<number> {
    const { allowed, refused } = this.egress.split(slave.masters);
    if (refused.length)
      this.logger.warn(
        { zone: slave.zone, refused: refused.map(peerText) },
        'dns: masters outside --dns-peers-allow not asked',
      );
    for (const master of allowed) {
      const serial = await querySoaSerial(master, slave.zone);
      if (serial === null) continue;
      if (slave.serial !== 0 && serial === slave.serial) return this.refreshMs(slave);
      try {
        const records = await axfr(master, slave.zone, this.caps);
        const zoneTtl = (records.find((a) => a.type === WIRE.SOA) as { data?: { minimum?: number } } | undefined)?.data
          ?.minimum;
        await this.store(
          slave,
          records.map((a, i) => fromWire(a, slave.zone, i + 1, zoneTtl)).filter((r): r is ZoneRecord => r !== null),
        );
        this.stats.transfers++;
        this.logger.info(
          { zone: slave.zone, serial, master: peerText(master), records: records.length },
          'dns: slave zone transferred',
        );
        await this.onNewCopy();
        return this.refreshMs({ ...slave, serial });
      } catch (err) {
        this.stats.failures++;
        this.logger.warn({ err, zone: slave.zone, master: peerText(master) }, 'dns: zone transfer failed');
      }
    }
    return FIRST_RETRY_MS;
  }

  private async refreshMs(slave: SlaveZone): Promise<number> {
    const soa = await recordOfType(this.db, slave.id, WIRE.SOA);
    return Math.max(5, soa ? Number(soa.data.refresh) : 3600) * 1000;
  }

  /**
   * The transferred copy replaces the zone's records and is served at once,
   * in one transaction, through the publication path a publish takes
   * (writePublication): the copy is this zone's published version.
   */
  private async store(slave: SlaveZone, records: ZoneRecord[]): Promise<void> {
    const soa = records.find((r) => r.type === WIRE.SOA);
    if (!soa) throw new Error('transfer without SOA');
    const serial = Number(soa.data.serial);
    await this.db.transaction().execute(async (trx) => {
      await replaceTransferred(
        trx,
        slave.id,
        records.map((r) => ({ type: r.type, data: r.data })),
      );
      const model: ZoneModel = { zone: slave.zone, serial, records: await zoneRecords(trx, slave.id) };
      await writePublication(trx, { id: slave.id, name: slave.zone }, model, 'served', this.clock.now());
    });
  }
}
