import { Command, Option } from 'commander';
import { AccountInputError } from '../accounts/accounts.ts';
import { parseDuration } from '../duration.ts';
import { adminEvent } from './admin-log.ts';
import { checked, dataOption, dbOption } from './options.ts';
import { withStore } from './with-store.ts';

/**
 * How long `admin schedule run` waits for a serve or worker to start the
 * run: each looks every 2 s (VIGIL_SCHEDULE_POLL), so 30 s is many looks.
 */
const WAIT_DEFAULT = '30s';

/**
 * `admin schedule run ID` (INTERFACE.md) and `admin schedule list`. The
 * admin command does not start the audit itself: it has neither the
 * queue's pg-boss nor the mail settings. It marks the run asked for in the
 * store, where every serve and worker looks (src/audit/scheduler.ts), and
 * waits until one of them started it: the run is then exactly a due run
 * (checked again, a failed audit with its code if refused, mailed, counted
 * for alert=changes), made once however many processes look.
 */
export function scheduleCommand(): Command {
  const schedule = new Command('schedule').description('audit schedules (saScheduleAudit)');
  schedule
    .command('run')
    .description("start a schedule's run at once, as if it were due (a serve or worker starts it)")
    .argument('<id>', 'the schedule id (saGetScheduleList, admin schedule list)')
    .addOption(dataOption())
    .addOption(dbOption())
    .addOption(
      new Option('--timeout <dur>', 'how long to wait for a serve or worker to start it')
        .argParser(checked(parseDuration))
        .default(parseDuration(WAIT_DEFAULT), WAIT_DEFAULT),
    )
    .option('--json', 'print JSON')
    .action((idText: string, o) =>
      withStore(o, async (db) => {
        const { ScheduleStore } = await import('../audit/schedule-store.ts');
        const { AuditStore } = await import('../audit/store.ts');
        const store = new ScheduleStore(db);
        const id = /^[1-9]\d{0,15}$/.test(idText) ? Number(idText) : 0;
        const before = id ? await store.get(id) : undefined;
        if (!before) throw new AccountInputError(`no schedule ${idText}`);
        await store.request(id);
        await adminEvent('admin: schedule run asked for', { scheduleid: id });
        for (const end = Date.now() + o.timeout; Date.now() < end; ) {
          await new Promise((r) => setTimeout(r, 200));
          const now = await store.get(id);
          if (!now) throw new AccountInputError(`schedule ${id} was deleted`);
          if (now.run_requested === 1 || now.last_audit_id === before.last_audit_id || now.last_audit_id === null)
            continue;
          const audit = await new AuditStore(db).get(now.last_audit_id);
          const out = {
            scheduleid: String(id),
            scanuid: String(audit.id),
            state: audit.state,
            ...(audit.state === 'failed' ? { reason: audit.reason } : {}),
          };
          process.stdout.write(
            o.json
              ? `${JSON.stringify(out)}\n`
              : `schedule ${id}: audit ${audit.id} ${audit.state === 'failed' ? `refused (${audit.reason})` : 'started'}\n`,
          );
          return;
        }
        throw new AccountInputError(
          `no serve or worker started schedule ${id}'s run within ${o.timeout / 1000}s; it stays asked for and starts when one runs`,
        );
      }),
    );
  schedule
    .command('list')
    .description('every schedule of every account, with its next run')
    .addOption(dataOption())
    .addOption(dbOption())
    .option('--json', 'print JSON')
    .action((o) =>
      withStore(o, async (db) => {
        const { ScheduleStore } = await import('../audit/schedule-store.ts');
        const { listed } = await import('../audit/schedules.ts');
        const { useridsOf } = await import('../accounts/account-store.ts');
        const rows = await new ScheduleStore(db).all();
        const users = await useridsOf(
          db,
          rows.map((r) => r.account_id),
        );
        const out = rows.map((r) => ({ ...listed(r), userid: users.get(r.account_id) ?? '' }));
        if (o.json) return void process.stdout.write(`${JSON.stringify(out)}\n`);
        const lines = out.map(
          (s) =>
            `${s.scheduleid}  ${s.userid}  ${s.audittype} of ${s.ipaddr}${s.ports ? ` ports ${s.ports}` : ''}  every ${s.every} (alert ${s.alert}${s.notification ? ', notify' : ''}${s.excludedos ? ', exclude-dos' : ''})  next ${s.nextrun}  last audit ${s.lastscanuid || '-'}`,
        );
        process.stdout.write(`${lines.join('\n') || 'no schedules'}\n`);
      }),
    );
  return schedule;
}
