import type { AccountRow } from '../accounts/accounts.ts';
import type { Db } from '../store/db.ts';
import type { DomainRow, Domains, Trx } from './domains.ts';
import { DomainState } from './states.ts';
import { buildZone, nextSerial } from './zone.ts';
import { type DnsEgress, peerText } from './egress.ts';
import type { HintPlan, HintResult } from './health/hint.ts';
import { parsePeer, type Peer } from './peers.ts';
import type { CheckReply } from './publish-jobs.ts';
import { type PublishRunner, type PublishRunnerOptions, publishRunner } from './publish-thread.ts';
import { setDomainState } from './zone-store/domains.ts';
import { writePublication } from './zone-store/publications.ts';
import { zoneRecordsText } from './zone-store/records.ts';
import { WIRE } from './rr/wire-names.ts';
import { Options } from './rr/options.ts';

export interface PublishResult {
  warnings?: string[];
  errors?: string[];
}

/** A publish's reply and the facts its caller logs. */
export interface PublishOutcome {
  reply: PublishResult;
  /** The domain's name as stored. */
  domain: string;
  /** The new serial waiting for distribution; null when nothing waits (errors, slave). */
  serial: number | null;
  /** Zone health's hint, run on the version the test load indexed (no second build), when it waits. */
  hint?: HintResult;
}

export const SLAVE_WARNING = 'a slave domain is published by its masters: Vigil transfers each new version from them';
export const ON_HOLD_ERROR =
  'the domain is on hold until the operator releases it (new domains are checked before their first publish)';

/**
 * Tries of a publish whose checks run outside the transaction before one
 * runs them inside it (`attempt`): a retry needs a record write to land
 * in the seconds a large zone's checks take, twice in a row.
 */
const ATTEMPTS = 3;

/** A version read and checked: the domain row it was read with, its serial, the thread's reply. */
interface Checked {
  domain: DomainRow;
  serial: number;
  checked: CheckReply;
}

/** The same domain (not one deleted and added again), its records and serial as read: no write came between. */
const sameVersion = (a: DomainRow, b: DomainRow) =>
  a.id === b.id && Number(a.records_version) === Number(b.records_version) && Number(a.serial) === Number(b.serial);

/**
 * Publish (spec section 3): validate the zone as it would be served and
 * load it into a test instance of the name server's index (publish-jobs.ts,
 * on the publish thread); with errors the domain goes to Configuration
 * Errors (1); otherwise it gets a new serial and waits (2) for the next
 * distribution cycle.
 */
export class Publisher {
  /** Tests: run on the main thread when a version's checks are sent off, and when they come back. */
  onChecking?: (zone: string) => void;
  onChecked?: (zone: string) => void;
  /** Tests only: holds each check job until `hold[0]` is set (publish-jobs.ts). */
  hold?: Int32Array;
  private readonly runner: PublishRunner;

  constructor(
    private readonly domains: Domains,
    private readonly egress: DnsEgress,
    /** Zone health's plan for a publish's hint (health/service.ts); none: no hint. */
    private readonly hintPlan: (account: AccountRow, domain: DomainRow) => HintPlan | null = () => null,
    /** The publish thread's observer (the metrics) and the tests' fault hook (publish-thread.ts). */
    thread: PublishRunnerOptions = {},
  ) {
    this.runner = publishRunner(thread);
  }

  /** dnsBuildZone.php: a large master zone's text is written on the publish thread, as its checks are. */
  async buildZone(account: AccountRow, field: string | undefined): Promise<string> {
    const domain = await this.domains.own(account, field);
    if (domain.type === 'master') {
      const { text, count } = await zoneRecordsText(this.domains.db, domain.id);
      return this.runner.text({ zone: domain.name, serial: this.serialOf(domain), records: text, count });
    }
    const model = await this.domains.model(domain);
    // A slave domain has no records, not even an SOA, until its first transfer from its
    // masters: no zone yet is an answer, not a fault (issue 12: soaOf threw and the
    // API logged a stack trace). A comment line is a valid, empty master file; the
    // name holds only [a-z0-9.-] (normalizeDomain), so it cannot leave the comment.
    if (domain.type === 'slave' && !model.records.some((r) => r.type === WIRE.SOA)) {
      return `; ${domain.name}: slave domain, no copy transferred from its masters yet\n`;
    }
    return buildZone(model);
  }

  async publish(account: AccountRow, field: string | undefined): Promise<PublishOutcome> {
    for (let attempt = 1; attempt < ATTEMPTS; attempt++) {
      const out = await this.attempt(account, field, false);
      if (out) return out;
    }
    return (await this.attempt(account, field, true))!;
  }

  /**
   * One try. The checks take the CPU for seconds on a large zone (a
   * 100,000-record zone: docs/performance.md, "Publish off the main
   * thread"): they run on the publish thread, and outside any transaction,
   * since a transaction holds SQLite's one connection and every other call
   * would wait for it. The version is read with its domain's
   * records_version (raised by every record write, zone-store/records.ts)
   * and serial; the write is one transaction that locks the domain and
   * finds both as read, else nothing is written and this returns null (a
   * change came between: the caller tries again). `underLock` (the last
   * try) reads and checks inside the transaction, as publish always did,
   * so a zone edited without pause still gets published.
   */
  private async attempt(
    account: AccountRow,
    field: string | undefined,
    underLock: boolean,
  ): Promise<PublishOutcome | null> {
    let read: Checked | null = null;
    if (!underLock) {
      const domain = await this.domains.own(account, field);
      if (domain.type === 'master') read = await this.check(account, domain, this.domains.db);
    }
    return this.domains.db.transaction().execute(async (trx) => {
      // Locked (PostgreSQL): the serial and state are written from this read.
      const domain = await this.domains.own(account, field, trx, true);
      if (read && !sameVersion(read.domain, domain)) return null;
      const master = domain.type === 'master' ? (read ?? (await this.check(account, domain, trx))) : null;
      const errors = master ? [...master.checked.errors] : [];
      const warnings = master
        ? [...master.checked.warnings, ...this.refusedPeers(master.checked.notify, 'NOTIFY will not be sent to')]
        : await this.slaveWarnings(trx, domain);
      if (domain.on_hold) errors.unshift(ON_HOLD_ERROR);
      const reply: PublishResult = {};
      if (warnings.length) reply.warnings = warnings;
      if (errors.length) {
        await setDomainState(trx, domain.id, DomainState.ConfigurationErrors);
        reply.errors = errors;
        return { reply, domain: domain.name, serial: null };
      }
      if (!master) return { reply, domain: domain.name, serial: null };
      // The domain waits (2) for the next cycle to serve this version.
      const { serial, checked } = master;
      await writePublication(trx, domain, { serial, text: checked.snapshot! }, 'pending', this.domains.clock.now());
      return { reply, domain: domain.name, serial, hint: checked.hint ?? undefined };
    });
  }

  /** Reads a master zone's version and has it checked (publish-jobs.ts) on the publish thread. */
  private async check(account: AccountRow, domain: DomainRow, db: Db | Trx): Promise<Checked> {
    const { settings } = this.domains;
    const serial = this.serialOf(domain);
    const { text, count } = await zoneRecordsText(db, domain.id);
    const pending = this.runner.check({
      zone: domain.name,
      serial,
      records: text,
      count,
      caps: { maxZoneRecords: settings.maxZoneRecords, maxZoneBytes: settings.maxZoneBytes },
      // The hint is for a version that waits: a domain on hold publishes nothing.
      hint: domain.on_hold ? null : this.hintPlan(account, domain),
      hold: this.hold,
    });
    this.onChecking?.(domain.name);
    const checked = await pending;
    this.onChecked?.(domain.name);
    return { domain, serial, checked };
  }

  /** The serial a publish now would give (the same as Domains.model's). */
  private serialOf(domain: DomainRow): number {
    return nextSerial(Number(domain.serial) || null, new Date(this.domains.clock.now()));
  }

  /** A slave zone is its masters' copy: they publish it, Vigil follows. */
  private async slaveWarnings(trx: Trx, domain: DomainRow): Promise<string[]> {
    const model = await this.domains.model(domain, trx);
    const masters = String(model.records.find((r) => r.type === Options.type)?.data.masters ?? '')
      .split(',')
      .filter(Boolean);
    return [
      SLAVE_WARNING,
      ...this.refusedPeers(
        masters.map((m) => parsePeer(m)).filter((p): p is Peer => p !== null),
        'no transfer will be asked from',
      ),
    ];
  }

  /** Ends the publish thread (the service's stop). */
  close(): Promise<void> {
    return this.runner.close();
  }

  /** Publish warnings for peers outside the DNS egress fence (docs/security.md). */
  private refusedPeers(peers: Peer[], what: string): string[] {
    const { refused } = this.egress.split(peers);
    return refused.map(
      (p) => `${what} ${peerText(p)}: this server sends DNS traffic only to the addresses its operator allows`,
    );
  }
}
