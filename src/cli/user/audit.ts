import { Command, Option } from 'commander';
import type { CallParams } from '../../client/index.ts';
import { act, userCommand } from './command.ts';
import { auditList, type AuditEntry, progressText, waitForEnd } from './audit-wait.ts';
import { CliError, EXIT } from './exit.ts';
import { printJson, printText, table } from './output.ts';
import { type UserSession, withSession } from './session.ts';
import { renderedReport, REPORT_FORMATS, type ReportFormat } from './report-format.ts';
import { scheduleCommands } from './audit-schedule.ts';

type Json = { json?: boolean };
const AUDIT_TYPES = ['basic', 'norisk', 'desktop', 'standard', 'advanced'] as const;
type RunFields = CallParams<'saRunAudit.php'>;
/** How often --wait asks for the list: the server writes progress about once a second (src/audit/progress.ts). */
const POLL_MS = 1000;

const entryText = (e: AuditEntry) => `audit ${e.scanuid}: ${e.type} of ${e.hostip}, ${e.folder}`;

/**
 * The new audit's list entry. Its scanuid is saRunAudit's `scanuid`
 * extension field; a server without that field is still served: the new
 * entry is the one that was not in the list before (the list is per
 * account, so only two runs racing in one account could confuse it).
 */
async function startAudit(s: UserSession, fields: RunFields): Promise<AuditEntry> {
  const before = new Set((await auditList(s)).map((e) => e.scanuid));
  const reply = await s.call('saRunAudit.php', fields);
  const list = await auditList(s);
  const scanuid =
    reply.scanuid !== undefined ? String(reply.scanuid) : list.find((e) => !before.has(e.scanuid))?.scanuid;
  const entry = list.find((e) => e.scanuid === scanuid);
  if (!entry) throw new CliError(EXIT.api, 'the new audit is not in the list: see vigil audit list');
  return entry;
}

export function auditCommand(): Command {
  const audit = new Command('audit').description('security audits as the logged-in user (vigil login first)');

  audit.addCommand(
    userCommand('run', 'start an audit of TARGETS (addresses, patterns like 10.0.0.1-20 or CIDRs; several allowed)')
      .argument('<targets...>')
      .addOption(new Option('--type <type>', 'the audit type').choices(AUDIT_TYPES).makeOptionMandatory())
      .option('--notify', 'mail the account when the audit ends')
      .option('--exclude-dos', 'leave out the denial-of-service checks')
      .option('--ports <list>', "TCP ports and ranges to scan instead of the type's list, e.g. 22,80,8000-8100")
      .option('--wait', 'show progress on stderr and return when the audit ends (exit 5 if it failed)')
      .action(
        act(
          async (
            targets: string[],
            o: Json & {
              type: RunFields['audittype'];
              notify?: boolean;
              excludeDos?: boolean;
              wait?: boolean;
              ports?: string;
            },
          ) => {
            const fields: RunFields = { ipaddr: targets.join(','), audittype: o.type };
            if (o.ports !== undefined) fields.ports = o.ports;
            if (o.notify) fields.notification = 'OCMP';
            if (o.excludeDos) fields.excludedos = '1';
            const entry = await withSession(async (s) => {
              const started = await startAudit(s, fields);
              return o.wait ? waitForEnd(s, started.scanuid, POLL_MS) : started;
            });
            if (o.json) printJson(entry);
            else
              printText(
                o.wait ? `${entryText(entry)}; the report: vigil audit report ${entry.scanuid}` : `${entryText(entry)}`,
              );
            if (entry.folder === 'failed') throw new CliError(EXIT.failed, `audit ${entry.scanuid} failed`);
          },
        ),
      ),
  );

  audit.addCommand(
    userCommand('list', 'your audits, newest first').action(
      act(async (o: Json) => {
        const scans = await withSession((s) => auditList(s));
        if (o.json) return printJson(scans);
        printText(
          table(scans, [
            ['SCANUID', (e) => e.scanuid],
            ['TYPE', (e) => e.type],
            ['TARGETS', (e) => e.hostip],
            ['QUEUED', (e) => e.time_queued],
            ['STARTED', (e) => e.time_start],
            ['ENDED', (e) => e.time_end],
            // A scheduled run says so (its schedule in --json); a failed one says why.
            [
              'STATE',
              (e) =>
                `${e.progress ? progressText(e) : (e.statusText ?? e.folder)}${e.scheduleid ? ` (schedule ${e.scheduleid})` : ''}`,
            ],
          ]),
        );
      }),
    ),
  );

  audit.addCommand(
    userCommand('report', 'an audit report: json (the API reply), text, csv or html')
      .argument('<scanuid>')
      .addOption(new Option('--format <format>', 'json | text | csv | html').choices(REPORT_FORMATS).default('text'))
      .action(
        act(async (scanuid: string, o: Json & { format: ReportFormat }) => {
          const r = await withSession((s) => s.call('saGetAuditReport.php', { scanuid }));
          // --json is --format json: one JSON document either way.
          const format = o.json ? 'json' : o.format;
          if (format === 'json') printJson(r.scaninfo);
          else printText(renderedReport(r.scaninfo, format));
        }),
      ),
  );

  for (const c of scheduleCommands()) audit.addCommand(c);
  return audit;
}
