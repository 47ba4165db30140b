import { type ColumnDefinitionBuilder, type Kysely, type Migration, type MigrationProvider, sql } from 'kysely';
import { isPostgres } from './dialect.ts';

/**
 * A table's own id: SQLite's `integer primary key autoincrement`, an
 * identity column on PostgreSQL (which has no AUTOINCREMENT). Migrations
 * 001-003 used the SQLite form alone before PostgreSQL existed; they now
 * call this, and their SQLite result is unchanged.
 */
function identity(db: Kysely<any>) {
  return (c: ColumnDefinitionBuilder) =>
    isPostgres(db) ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement();
}

/**
 * Migrations in order; each is written once and never edited after it lands
 * (001-003 were made dialect-neutral when PostgreSQL came: see identity()).
 */
const MIGRATIONS: Record<string, Migration> = {
  '001_accounts': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('accounts')
        .addColumn('id', 'integer', identity(db))
        .addColumn('userid', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('apikey_hash', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text')
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('audit_types', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('allow_ip', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('dns_credits', 'integer')
        .addColumn('dns_expiry', 'bigint')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('apikey_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_account').on('sessions').column('account_id').execute();
      await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();
      await db.schema
        .createTable('login_throttle')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('last_failure', 'bigint', (c) => c.notNull())
        .addColumn('locked_until', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '002_dns': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('domains')
        .addColumn('id', 'integer', identity(db))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('state', 'integer', (c) => c.notNull())
        .addColumn('on_hold', 'integer', (c) => c.notNull())
        .addColumn('serial', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('domains_account').on('domains').column('account_id').execute();
      await db.schema
        .createTable('records')
        .addColumn('id', 'integer', identity(db))
        .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('records_domain').on('records').columns(['domain_id', 'type']).execute();
      // What the name servers serve: the version in service and the one
      // queued for the next distribution cycle. Outlives its domain until
      // the cycle has removed it from the name servers.
      await db.schema
        .createTable('zone_publications')
        .addColumn('zone', 'text', (c) => c.primaryKey())
        .addColumn('domain_id', 'integer', (c) => c.references('domains.id').onDelete('set null'))
        .addColumn('served_serial', 'bigint')
        .addColumn('served_snapshot', 'text')
        .addColumn('pending_serial', 'bigint')
        .addColumn('pending_snapshot', 'text')
        .addColumn('removing', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('changed_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '003_audits': {
    async up(db: Kysely<any>) {
      // One row per saRunAudit request: the audit and its job in the queue.
      await db.schema
        .createTable('audits')
        .addColumn('id', 'integer', identity(db))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('hostip', 'text', (c) => c.notNull())
        .addColumn('excludedos', 'integer', (c) => c.notNull())
        .addColumn('notification', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('lease_owner', 'text')
        .addColumn('lease_until', 'bigint')
        .addColumn('queued_at', 'bigint', (c) => c.notNull())
        .addColumn('started_at', 'bigint')
        .addColumn('ended_at', 'bigint')
        .addColumn('report', 'text')
        .addColumn('notified_at', 'bigint')
        .execute();
      await db.schema.createIndex('audits_account').on('audits').column('account_id').execute();
      await db.schema.createIndex('audits_state').on('audits').columns(['state', 'id']).execute();
      // Every address an audit covers: the norisk limit and baselines look here.
      await db.schema
        .createTable('audit_targets')
        .addColumn('audit_id', 'integer', (c) => c.notNull().references('audits.id').onDelete('cascade'))
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('audit_targets_pk', ['audit_id', 'address'])
        .execute();
      await db.schema
        .createIndex('audit_targets_address')
        .on('audit_targets')
        .columns(['address', 'audit_id'])
        .execute();
    },
  },
  // Issue 12, item 4: the throttle counts (userid, address) pairs, each
  // userid and each address separately, and remembers the addresses a userid
  // logged in from. The old rows (`user:`/`addr:` keys) are only failure
  // counts with no pair to map to; dropping them forgets at most a day of
  // failures, which is what a restart of the window does anyway.
  '004_login_throttle_pairs': {
    async up(db: Kysely<any>) {
      await db.schema.dropTable('login_throttle').execute();
      await db.schema
        .createTable('login_throttle')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('userid', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('last_failure', 'bigint', (c) => c.notNull())
        .addColumn('locked_until', 'bigint', (c) => c.notNull())
        .addColumn('last_success', 'bigint')
        .addPrimaryKeyConstraint('login_throttle_pk', ['scope', 'userid', 'address'])
        .execute();
    },
  },
  // Issue 12, item 5: the record set of an add is looked up by its owner
  // name; without this column every add in a big zone read every record of
  // its type (measured 7 ms per add at 10,000 A records). Existing rows
  // keep a null owner until the limits check fills it in.
  '005_record_owner': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('records').addColumn('owner', 'text').execute();
      await db.schema.createIndex('records_owner').on('records').columns(['domain_id', 'type', 'owner']).execute();
    },
  },
  // Issue 13: several `serve` on one store run the distribution cycle once
  // per interval for the whole set. One row: the number of the last cycle
  // claimed and when (src/store/cycle-schedule.ts owns it).
  '006_distribution_schedule': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('distribution_schedule')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('cycle', 'bigint', (c) => c.notNull())
        .addColumn('last_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  // Issue 13: a version of each domain's records, raised in the transaction
  // of every record write, so that a process caching a zone's records reply
  // learns of a write by any other process from the domain row it reads anyway.
  '007_records_version': {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('domains')
        .addColumn('records_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  // Issue 15: what an audit covered (the TCP ports scanned, the checks that
  // ran, per address the checks that failed there), so that a later audit
  // compares like with like and never calls "resolved" what it did not
  // check; and its progress while queued or running, written by whichever
  // process runs it (a `vigil worker` elsewhere) for the list to read.
  // Audits finished before this keep a null coverage: compared by the old
  // rule (src/audit/baseline.ts).
  '008_audit_coverage_progress': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('audits').addColumn('coverage', 'text').execute();
      await db.schema.alterTable('audits').addColumn('progress', 'text').execute();
    },
  },
  // Issue 19: DNSSEC. A domain's choice to be signed; its keys, sealed
  // (src/dns/dnssec/seal.ts) with a key-encryption key that is never in the
  // store; and, per publication, when its signed version must be signed
  // again (null: unsigned), so the distribution cycle finds the zones to
  // sign without reading any snapshot (src/dns/sign-pass.ts).
  '009_dnssec': {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('domains')
        .addColumn('dnssec', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('dnssec_keys')
        .addColumn('id', 'integer', identity(db))
        .addColumn('domain_id', 'integer', (c) => c.notNull().references('domains.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('algorithm', 'integer', (c) => c.notNull())
        .addColumn('tag', 'integer', (c) => c.notNull())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('sealed', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('active_at', 'bigint', (c) => c.notNull())
        .addColumn('retire_at', 'bigint')
        .addColumn('remove_at', 'bigint')
        .execute();
      await db.schema.createIndex('dnssec_keys_domain').on('dnssec_keys').column('domain_id').execute();
      await db.schema.alterTable('zone_publications').addColumn('served_resign_at', 'bigint').execute();
      await db.schema.alterTable('zone_publications').addColumn('pending_resign_at', 'bigint').execute();
    },
  },
  // Issue 28: the domain's authenticated denial, 0 NSEC (the default and
  // every existing zone's) or 1 NSEC3 with RFC 9276's parameters
  // (dnsSetDNSSEC.php `nsec3`). Kept while signing is off, so turning it
  // on again keeps the user's choice.
  '010_dnssec_nsec3': {
    // Kysely<unknown>, not the <any> of the ones before: the schema builder needs no table types.
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('domains')
        .addColumn('dnssec_nsec3', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  // Issue 31: audits a security team can run every week. A schedule is an
  // audit request kept with its cadence (src/audit/schedule-store.ts owns
  // the table); the process that moves `next_run_at` on in one conditional
  // write starts the run, so every serve and worker of a set may look and
  // each due run starts once. `run_requested`: `admin schedule run` asks
  // for a run now. An audit remembers the ports it was asked to scan
  // (null: its type's list), the schedule that started it, and whether its
  // alert mail went out ('sent') or was held back as unchanged ('held').
  // `last_audit_id` is no foreign key: audits already refer to schedules,
  // and a cycle of keys would leave `admin store copy` no order to copy in.
  '011_audit_schedules': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('audit_schedules')
        .addColumn('id', 'integer', identity(db))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('hostip', 'text', (c) => c.notNull())
        .addColumn('excludedos', 'integer', (c) => c.notNull())
        .addColumn('ports', 'text')
        .addColumn('notification', 'integer', (c) => c.notNull())
        .addColumn('every', 'text', (c) => c.notNull())
        .addColumn('alert', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('next_run_at', 'bigint', (c) => c.notNull())
        .addColumn('run_requested', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_audit_id', 'integer')
        .execute();
      await db.schema.createIndex('audit_schedules_account').on('audit_schedules').column('account_id').execute();
      await db.schema.createIndex('audit_schedules_next').on('audit_schedules').column('next_run_at').execute();
      await db.schema.alterTable('audits').addColumn('ports', 'text').execute();
      await db.schema
        .alterTable('audits')
        .addColumn('schedule_id', 'integer', (c) => c.references('audit_schedules.id').onDelete('set null'))
        .execute();
      await db.schema.alterTable('audits').addColumn('alert_mail', 'text').execute();
      await db.schema.createIndex('audits_schedule').on('audits').column('schedule_id').execute();
    },
  },
  // Issue 32: a name server's reload reads what changed, not every zone. Each
  // write of a served version takes the next number of one sequence
  // (src/dns/zone-store/publications.ts, nextServedSeq, under a lock held to
  // commit, so numbers commit in order); a reload asks for the rows above
  // the last number it saw (src/dns/server/serving-set.ts). Versions served
  // before this are numbered 0: the first load after a start reads them all.
  '012_served_seq': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('zone_publications').addColumn('served_seq', 'bigint').execute();
      await sql`update zone_publications set served_seq = 0 where served_snapshot is not null`.execute(db);
      await db.schema
        .createIndex('zone_publications_served_seq')
        .on('zone_publications')
        .column('served_seq')
        .execute();
    },
  },
  // Issue 32: served_seq never goes back. The next number was the highest
  // row's plus one, so when a cycle deleted the row holding the highest, the
  // next version served took that number again, and a reload that had seen
  // it skipped the version (test/dns-scale.test.ts). A cycle that removes
  // zones raises this floor to its first number; numbering goes on above it
  // (src/dns/zone-store/served.ts), and the served generation is the higher
  // of the two (publications.ts).
  //
  // And the statements every cycle runs find their few rows through an
  // index instead of reading every row: at 100,000 zones each read the
  // whole table, snapshots and all (1.2 to 1.4 s each on SQLite, on the main
  // thread, docs/performance.md "100,000 zones"). Partial indexes (SQLite
  // and PostgreSQL alike) hold only the rows they look for: pending versions,
  // zones being removed, versions signed, slave domains; domain_id serves
  // the signer's join and the foreign key's ON DELETE SET NULL when a
  // domain goes.
  '013_served_seq_floor': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('distribution_schedule')
        .addColumn('served_seq_floor', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`create index zone_publications_pending on zone_publications (zone) where pending_snapshot is not null`.execute(
        db,
      );
      await sql`create index zone_publications_removing on zone_publications (zone) where removing = 1`.execute(db);
      await sql`create index zone_publications_signed on zone_publications (zone) where served_resign_at is not null`.execute(
        db,
      );
      await db.schema.createIndex('zone_publications_domain').on('zone_publications').column('domain_id').execute();
      await sql`create index domains_signing on domains (id) where dnssec = 1`.execute(db);
      // The secondary manager's look at the slave domains, every second (zone-store/domains.ts, slaveDomains).
      await sql`create index domains_slave on domains (id) where type = 'slave'`.execute(db);
    },
  },
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return MIGRATIONS;
  },
};

export { sql };
