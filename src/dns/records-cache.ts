/** dnsGetDomainRecords' `records` field: every record of a zone keyed by its seq, in reply form. */
export type RecordsReply = Readonly<
  Record<string, { seq: string; type: string; data: Record<string, string | number> }>
>;

/**
 * Records replies by zone version (issue 13). Tools such as external-dns
 * and octoDNS read every zone every minute, and building the reply of a
 * 1,000-record zone (read 1,000 rows, parse their JSON, shape each) cost
 * ~10 times what the call costs without it (bench/records-read.ts). The
 * key is the domain's `records_version`, which every record write raises
 * in its own transaction (src/dns/zone-store/records.ts) and every read
 * gets with the domain row it fetches anyway: a write by any process
 * (another `serve` on one PostgreSQL, `admin`) changes the key, so a
 * reply is never used past a write, with no message between processes.
 *
 * Bounded by records held (the reply of a record is a few hundred bytes of
 * heap: 100,000 are some tens of MB), least recently used out first.
 */
export class RecordsCache {
  private readonly entries = new Map<number, { version: number; records: RecordsReply; size: number }>();
  private held = 0;

  constructor(private readonly maxRecords = 100_000) {}

  get(domainId: number, version: number): RecordsReply | undefined {
    const entry = this.entries.get(domainId);
    if (!entry || entry.version !== version) return undefined;
    // Map order is insertion order: moving it to the end keeps the least recently used first.
    this.entries.delete(domainId);
    this.entries.set(domainId, entry);
    return entry.records;
  }

  /**
   * Keeps a reply built from records read after `version` was read. They
   * may be newer than `version` (a write committed in between), never
   * older; and no later read gets an older version, so a newer reply under
   * it is harmless. A reply for an older version than the one held is not kept.
   */
  set(domainId: number, version: number, records: RecordsReply, size: number): void {
    const current = this.entries.get(domainId);
    if (current && current.version > version) return;
    if (current) {
      this.entries.delete(domainId);
      this.held -= current.size;
    }
    if (size > this.maxRecords) return;
    this.entries.set(domainId, { version, records, size });
    this.held += size;
    for (const [id, e] of this.entries) {
      if (this.held <= this.maxRecords) break;
      this.entries.delete(id);
      this.held -= e.size;
    }
  }
}
