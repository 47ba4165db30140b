import type { Mail } from './mailer.ts';
import type { ScanInfo } from './report.ts';

const RISKS = ['high', 'medium', 'low', 'other'] as const;

/**
 * The completion mail (spec 6, notification=OCMP): names the audit, its
 * address(es) and the count per risk. Nothing from the targets' own
 * answers goes into it, so a hostile banner cannot shape the mail.
 */
export function completionMail(to: string, info: ScanInfo, addresses: readonly string[]): Mail {
  const b = info.basic;
  const failed = b.reporttype === 'failed';
  const counts = RISKS.map((r) => `${r}: ${info.risk[r] ?? 0}`).join(', ');
  const shown = addresses.length > 20 ? `${addresses.slice(0, 20).join(', ')} and ${addresses.length - 20} more` : addresses.join(', ');
  const text = [
    `Your ${b.scantype} audit ${b.scanuid} of ${b.hostip} has ${failed ? 'failed' : 'finished'}.`,
    '',
    `Addresses: ${shown}`,
    `Findings by risk: ${counts}`,
    `Open ports found: ${info.ports.length}`,
    '',
    `Read the full report with saGetAuditReport.php, scanuid=${b.scanuid}.`,
    '',
  ].join('\n');
  return { to, subject: `Vigil audit ${b.scanuid} (${b.scantype}) of ${b.hostip}: ${failed ? 'failed' : counts}`, text };
}
