import { getServers } from 'node:dns';
import type { AccountRow } from '../../accounts/accounts.ts';
import type { Domains, DomainRow } from '../domains.ts';
import { parsePeer, type Peer } from '../peers.ts';
import { buildZoneIndex, type ZoneIndex } from '../server/zone-index.ts';
import { HealthContext } from './context.ts';
import { type HintPlan, type HintResult, publishHintOn } from './hint.ts';
import { type HostProbes, hostProbes } from './hosts.ts';
import { HEALTH_CHECKS, runChecks } from './table.ts';
import type { HealthFinding } from './types.ts';
import { World } from './world.ts';

export interface HealthSettings {
  /** `--resolver`; empty: the system's resolvers (/etc/resolv.conf). */
  readonly resolvers: readonly string[];
  readonly scanAllow: readonly string[];
  /** Where web-forwarded names resolve (the zone as the name server would answer it). */
  readonly forwardAddress: string | null;
}

export interface HealthReport {
  findings: HealthFinding[];
  /** ISO 8601 UTC. */
  checked: string;
}

/**
 * Time budgets. A check's DNS look-ups end within 8 s whatever the world
 * does (parallel questions of 1.2 s, asked twice at most, and chains of a
 * few steps); host probes have the audit engine's 4 s per connection. A
 * publish waits at most 2.5 s for its hint, and not at all while the
 * resolver is known not to answer.
 */
const CHECK_DNS_MS = 8_000;
const HOST_PROBE_MS = 4_000;
const PUBLISH_MS = 2_500;
/** After a resolver failed to answer a publish's first question, publishes skip the world this long. */
const RESOLVER_QUIET_MS = 60_000;

/** Zone health (issue 30): dnsCheckDomain.php, and the hint a publish gives (docs/dns.md, "Zone health"). */
export class ZoneHealth {
  /** Set by app.ts when metrics are on: the findings of every full check, by level. */
  onFindings?: (findings: readonly HealthFinding[]) => void;
  /** Set by app.ts: a row that threw (a bug, never a finding). */
  onFailure?: (id: string, err: unknown) => void;
  private quietUntil = 0;

  constructor(
    private readonly domains: Domains,
    private readonly settings: HealthSettings,
  ) {}

  /** The resolvers named by --resolver, else the system's. */
  resolvers(): Peer[] {
    const list = this.settings.resolvers.length ? this.settings.resolvers : getServers();
    return list.map((s) => parsePeer(s)).filter((p): p is Peer => p !== null);
  }

  /** dnsCheckDomain.php: every check, the world and the account's hosts included. */
  async check(account: AccountRow, field: string | undefined): Promise<HealthReport> {
    const domain = await this.domains.own(account, field);
    const allowIp = account.allow_ip ?? '';
    const hosts = hostProbes(allowIp, this.settings.scanAllow, HOST_PROBE_MS);
    const world = new World({
      resolvers: this.resolvers(),
      mayAsk: (a) => hosts.mayAudit(a),
      deadline: Date.now() + CHECK_DNS_MS,
    });
    const findings = await this.run(domain, world, hosts, false);
    this.onFindings?.(findings);
    return { findings, checked: new Date(this.domains.clock.now()).toISOString() };
  }

  /**
   * The ERRORs the zone just published shows, as publish warnings: a hint,
   * never a refusal. The world is asked only through a resolver the
   * operator named (--resolver), within PUBLISH_MS, and not while it is
   * known to be silent; host probes are left to dnsCheckDomain.php.
   * `published`: the hint a publish already ran on its test load's index
   * (on the publish thread, hint.ts); without it the zone is indexed here.
   */
  async publishHint(account: AccountRow, field: string | undefined, published?: HintResult): Promise<string[]> {
    if (published) return this.hintDone(published);
    const domain = await this.domains.own(account, field);
    const index = await this.indexOf(domain);
    return index ? this.hintDone(await publishHintOn(index, this.hintPlan(account, domain))) : [];
  }

  /** What a publish's hint needs, as plain data (it runs where the version's index is). */
  hintPlan(account: AccountRow, domain: DomainRow): HintPlan {
    const world =
      this.settings.resolvers.length && this.domains.clock.now() >= this.quietUntil
        ? {
            resolvers: this.resolvers(),
            allowIp: account.allow_ip ?? '',
            scanAllow: this.settings.scanAllow,
            budgetMs: PUBLISH_MS,
            attemptMs: 800,
          }
        : null;
    return { zone: domain.name, signing: Number(domain.dnssec) === 1, now: this.domains.clock.now(), world };
  }

  /** A hint's outcome: a silent resolver quiets the next publishes' world; a row that threw is told. */
  private hintDone(result: HintResult): string[] {
    if (result.silent) this.quietUntil = this.domains.clock.now() + RESOLVER_QUIET_MS;
    for (const f of result.failed) this.onFailure?.(f.id, Object.assign(new Error(f.message), { stack: f.stack }));
    if (result.error !== undefined) throw new Error(result.error);
    return result.hint;
  }

  /** The zone as a publish now would serve it; null for a slave domain before its first transfer (no SOA yet). */
  private async indexOf(domain: DomainRow): Promise<ZoneIndex | null> {
    try {
      return buildZoneIndex(await this.domains.model(domain), this.settings.forwardAddress);
    } catch {
      return null;
    }
  }

  /** The rows on the zone as a publish now would serve it; `localOnly`: the zone's own rows alone. */
  private async run(domain: DomainRow, world: World | null, hosts: HostProbes | null, localOnly: boolean) {
    const index = await this.indexOf(domain);
    if (!index) return [];
    const ctx = new HealthContext(
      domain.name,
      index,
      Number(domain.dnssec) === 1,
      this.domains.clock.now(),
      world,
      hosts,
    );
    const rows = localOnly ? HEALTH_CHECKS.filter((r) => r.local) : HEALTH_CHECKS;
    return runChecks(ctx, rows, (id, err) => this.onFailure?.(id, err));
  }
}
