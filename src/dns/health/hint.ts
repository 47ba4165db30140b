import type { Peer } from '../peers.ts';
import type { ZoneIndex } from '../server/zone-index.ts';
import { HealthContext } from './context.ts';
import { hostProbes } from './hosts.ts';
import { HEALTH_CHECKS, runChecks } from './table.ts';
import { World } from './world.ts';

/**
 * A publish's zone-health hint (issue 30; service.ts `publishHint` says
 * what it is) over the index the publish's test load built. It runs where
 * that index is: on the publish thread (src/dns/publish-jobs.ts), so a
 * large zone is neither indexed a second time nor checked on the main
 * thread. The plan and the result are plain data, to cross to the thread
 * and back; the main thread keeps the state (service.ts `hintDone`).
 */
export interface HintPlan {
  zone: string;
  /** Vigil signs this zone (dnsSetDNSSEC.php). */
  signing: boolean;
  /** The service's clock (signature times are judged by it). */
  now: number;
  /** Asked only through a resolver the operator named (--resolver), and not while it is known to be silent. */
  world: {
    resolvers: Peer[];
    /** The account's `allow-ip` grants and the server's `--scan-allow`: who may be asked directly. */
    allowIp: string;
    scanAllow: readonly string[];
    /**
     * How long the world may take, from the hint's start (wall time: a socket's wait cannot follow an
     * injected clock). A budget, not a deadline: a large zone's checks before it must not use it up.
     */
    budgetMs: number;
    attemptMs: number;
  } | null;
}

export interface HintResult {
  /** The ERRORs found, as publish warnings. */
  hint: string[];
  /** The resolver did not answer the zone's SOA: the next publishes skip the world a while. */
  silent: boolean;
  /** Rows that threw (a bug, never a finding): told to the service's failure hook. */
  failed: { id: string; message: string; stack?: string }[];
  /** The hint itself failed (a bug): the publish goes on, the caller logs it. */
  error?: string;
}

export async function publishHintOn(index: ZoneIndex, plan: HintPlan): Promise<HintResult> {
  let world: World | null = null;
  let silent = false;
  if (plan.world) {
    const hosts = hostProbes(plan.world.allowIp, plan.world.scanAllow);
    world = new World({
      resolvers: plan.world.resolvers,
      mayAsk: (a) => hosts.mayAudit(a),
      deadline: Date.now() + plan.world.budgetMs,
      attemptMs: plan.world.attemptMs,
    });
    if (!(await world.resolve(plan.zone, 'SOA'))) {
      silent = true;
      world = null;
    }
  }
  const failed: HintResult['failed'] = [];
  const ctx = new HealthContext(plan.zone, index, plan.signing, plan.now, world, null);
  const rows = world === null ? HEALTH_CHECKS.filter((r) => r.local) : HEALTH_CHECKS;
  const findings = await runChecks(ctx, rows, (id, err) =>
    failed.push({ id, message: (err as Error)?.message ?? String(err), stack: (err as Error)?.stack }),
  );
  return {
    hint: findings
      .filter((f) => f.level === 'ERROR')
      .map((f) => `zone health: ${f.name}: ${f.message} (${f.id}; dnsCheckDomain.php tells more)`),
    silent,
    failed,
  };
}
