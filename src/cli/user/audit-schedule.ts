import { type Command, Option } from 'commander';
import type { CallParams } from '../../client/index.ts';
import { act, userCommand } from './command.ts';
import { printJson, printText, table } from './output.ts';
import { withSession } from './session.ts';

type Json = { json?: boolean };
type ScheduleFields = CallParams<'saScheduleAudit.php'>;
const AUDIT_TYPES = ['basic', 'norisk', 'desktop', 'standard', 'advanced'] as const;

/** A saGetScheduleList entry (INTERFACE.md; `ports`, `excludedos`, `notification` are extension fields). */
interface ScheduleEntry {
  scheduleid: string;
  ipaddr: string;
  audittype: string;
  every: string;
  alert: string;
  nextrun: string;
  lastscanuid?: string;
  ports?: string;
  excludedos?: boolean;
  notification?: boolean;
}

/** A schedule's flag as a table cell; absent (an older server) shows as the table's `-`. */
const yesNo = (v: boolean | undefined) => (v === undefined ? undefined : v ? 'yes' : 'no');

/**
 * `vigil audit schedule|schedules|unschedule` (INTERFACE.md): audits that
 * run every day, week or month, over saScheduleAudit, saGetScheduleList
 * and saDeleteSchedule (docs/client.md).
 */
export function scheduleCommands(): Command[] {
  const schedule = userCommand(
    'schedule',
    'run an audit of TARGETS every day, week or month (the first run one period from now)',
  )
    .argument('<targets...>')
    .addOption(new Option('--type <type>', 'the audit type').choices(AUDIT_TYPES).makeOptionMandatory())
    .addOption(new Option('--every <period>', 'how often').choices(['day', 'week', 'month']).makeOptionMandatory())
    .addOption(
      new Option('--alert <when>', 'mail after every run, or only when a finding is new or resolved')
        .choices(['always', 'changes'])
        .default('always'),
    )
    .option('--notify', 'mail the account after runs (as --alert says)')
    .option('--exclude-dos', 'leave out the denial-of-service checks')
    .option('--ports <list>', "TCP ports and ranges to scan instead of the type's list, e.g. 22,80,8000-8100")
    .action(
      act(
        async (
          targets: string[],
          o: Json & {
            type: ScheduleFields['audittype'];
            every: ScheduleFields['every'];
            alert: NonNullable<ScheduleFields['alert']>;
            notify?: boolean;
            excludeDos?: boolean;
            ports?: string;
          },
        ) => {
          const fields: ScheduleFields = { ipaddr: targets.join(','), audittype: o.type, every: o.every };
          // Sent only when asked: a server takes its default (always) without it.
          if (o.alert !== 'always') fields.alert = o.alert;
          if (o.notify) fields.notification = 'OCMP';
          if (o.excludeDos) fields.excludedos = '1';
          if (o.ports !== undefined) fields.ports = o.ports;
          const entry = await withSession(async (s) => {
            const { scheduleid } = await s.call('saScheduleAudit.php', fields);
            const list = ((await s.call('saGetScheduleList.php', {})).schedules ?? []) as ScheduleEntry[];
            return list.find((e) => e.scheduleid === String(scheduleid)) ?? { scheduleid: String(scheduleid) };
          });
          if (o.json) return printJson(entry);
          const e = entry as Partial<ScheduleEntry>;
          printText(
            `schedule ${entry.scheduleid}: ${e.audittype ?? o.type} of ${e.ipaddr ?? fields.ipaddr} every ${o.every}${e.nextrun ? `, next run ${e.nextrun}` : ''}`,
          );
        },
      ),
    );

  const schedules = userCommand('schedules', 'your audit schedules with their next run').action(
    act(async (o: Json) => {
      const list = await withSession(
        async (s) => ((await s.call('saGetScheduleList.php', {})).schedules ?? []) as ScheduleEntry[],
      );
      if (o.json) return printJson(list);
      printText(
        table(list, [
          ['ID', (e) => e.scheduleid],
          ['TYPE', (e) => e.audittype],
          ['TARGETS', (e) => e.ipaddr],
          ['PORTS', (e) => e.ports],
          ['EVERY', (e) => e.every],
          ['ALERT', (e) => e.alert],
          // The flags `audit schedule --notify` and `--exclude-dos` set (before: only `--json` showed them).
          ['NOTIFY', (e) => yesNo(e.notification)],
          ['EXCLUDE DOS', (e) => yesNo(e.excludedos)],
          ['NEXT RUN', (e) => e.nextrun],
          ['LAST AUDIT', (e) => e.lastscanuid],
        ]),
      );
    }),
  );

  const unschedule = userCommand('unschedule', 'delete a schedule (its audits stay)')
    .argument('<id>')
    .action(
      act(async (id: string, o: Json) => {
        await withSession((s) => s.call('saDeleteSchedule.php', { scheduleid: id }));
        if (o.json) printJson({ scheduleid: id, deleted: true });
        else printText(`schedule ${id} deleted`);
      }),
    );

  return [schedule, schedules, unschedule];
}
