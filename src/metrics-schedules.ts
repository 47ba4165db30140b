import { Counter, Gauge, type Registry } from 'prom-client';
import { ScheduleStore } from './audit/schedule-store.ts';
import type { Clock } from './clock.ts';
import type { Db } from './store/db.ts';

/**
 * A counter of a total the store keeps (every process of a set writes it),
 * read at each scrape and raised by what it gained since the last one. A
 * total that went down (an account deleted with its audits) is not taken
 * off: a counter only goes up; growth after it counts again.
 */
function storeCounter(
  registry: Registry,
  name: string,
  help: string,
  label: string,
  read: () => Promise<Record<string, number> | null>,
): void {
  const last = new Map<string, number>();
  new Counter({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    async collect() {
      const totals = await read();
      for (const [value, n] of Object.entries(totals ?? {})) {
        // inc by 0 on the first scrape too: the series shows from the start.
        this.inc({ [label]: value }, Math.max(0, n - (last.get(value) ?? 0)));
        last.set(value, n);
      }
    },
  });
}

/**
 * The schedules' series (issue 31; docs/operations.md, "Monitoring"),
 * read from the store at each scrape: a run is started by whichever serve
 * or worker claimed it and mailed by whichever ran it, so no one process
 * has the set's numbers; the store has.
 * - `vigil_schedules_due`: schedules whose run is due now (or asked for by
 *   `admin schedule run`) and not started yet; above 0 for longer than a
 *   poll (2 s) means no serve or worker is looking.
 * - `vigil_schedule_runs_total{outcome}`: runs started, `queued` as an
 *   audit or `refused` (a failed audit with saRunAudit's code).
 * - `vigil_schedule_alerts_total{result}`: mails of scheduled runs `sent`,
 *   or `held` back by alert=changes because nothing changed.
 */
export function scheduleMetrics(registry: Registry, db: Db, clock: Clock): void {
  const store = new ScheduleStore(db);
  // A store that does not answer leaves the last values (healthz reports it).
  const counts = () => store.runCounts().catch(() => null);
  new Gauge({
    name: 'vigil_schedules_due',
    help: 'audit schedules whose run is due and not started yet, in the whole store',
    registers: [registry],
    async collect() {
      const n = await store.dueCount(clock.now()).catch(() => null);
      if (n !== null) this.set(n);
    },
  });
  storeCounter(
    registry,
    'vigil_schedule_runs_total',
    'scheduled audit runs started by any process: queued, or refused (a failed audit with the code)',
    'outcome',
    async () => {
      const c = await counts();
      return c && { queued: c.queued, refused: c.refused };
    },
  );
  storeCounter(
    registry,
    'vigil_schedule_alerts_total',
    'mails of scheduled runs: sent, or held back by alert=changes (nothing new or resolved)',
    'result',
    async () => {
      const c = await counts();
      return c && { sent: c.sent, held: c.held };
    },
  );
}
