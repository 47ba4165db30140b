import { act, userCommand } from './command.ts';
import { printJson, printText } from './output.ts';
import { withSession } from './session.ts';

const LEVELS = ['ERROR', 'WARNING', 'NOTICE', 'INFO'] as const;

/**
 * `vigil dns check DOMAIN [--json]` (INTERFACE.md, "Zone health"): the
 * findings of dnsCheckDomain.php grouped by level, most serious first.
 * It exits 0 whenever the check ran, findings or not (a finding is the
 * check's answer, not a failure of the command); scripts read --json.
 */
export function dnsCheckCommand() {
  return userCommand('check', "check a domain's health: delegation, DNSSEC, mail and web records, and its hosts")
    .argument('<domain>')
    .action(
      act(async (domain: string, o: { json?: boolean }) => {
        const r = await withSession((s) => s.call('dnsCheckDomain.php', { domain }));
        if (o.json) return printJson(r);
        const findings = r.findings as { id: string; level: string; name: string; message: string; solution: string }[];
        const counts = LEVELS.map((l) => `${findings.filter((f) => f.level === l).length} ${l}`).join(', ');
        printText(`${domain}: ${findings.length ? counts : 'no findings'} (checked ${r.checked})`);
        for (const level of LEVELS) {
          const at = findings.filter((f) => f.level === level);
          if (!at.length) continue;
          printText(`\n${level}`);
          for (const f of at) printText(`  ${f.name}: ${f.message} [${f.id}]\n    fix: ${f.solution}`);
        }
      }),
    );
}
