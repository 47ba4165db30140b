import type { Mail } from './mailer.ts';
import { renderReport } from './render/index.ts';
import { countsOf, isFinding, orderedEntries, RISK_LABEL, RISKS } from './render/model.ts';
import { wrap } from './render/text.ts';
import type { ScanInfo } from './report.ts';

/** How many findings the mail's text names; the attached report has them all. */
export const MAIL_TOP = 5;

/**
 * Lines of at most 76 characters (RFC 2045's limit): with ASCII text
 * nodemailer then sends the body as 7bit, readable as it is in an .eml file
 * of the outbox; a longer line makes the whole body quoted-printable.
 */
const LINE = 76;
const para = (text: string, hang = '') => {
  const [first = '', ...rest] = wrap(text, LINE - hang.length);
  return [first, ...rest.map((l) => hang + l)];
};

export const attachmentName = (scanuid: number) => `vigil-audit-${scanuid}.html`;

/**
 * The completion mail (spec 6, notification=OCMP): a text summary (counts
 * per risk, the most serious findings with their ports, what ran) and the
 * whole report as an HTML attachment (src/audit/render/). The headers hold
 * only what the account asked for (scanuid, type, the requested addresses)
 * and the counts: nothing from the targets' answers, so a hostile banner
 * cannot shape a header; the text body carries titles, control characters
 * replaced.
 */
export function completionMail(to: string, info: ScanInfo, addresses: readonly string[]): Mail {
  const b = info.basic;
  const failed = b.reporttype === 'failed';
  // Counted as the report, the summary and the attachment count (report-count.ts): findings, not open ports.
  const risk = countsOf(info).risk;
  const counts = RISKS.map((r) => `${r}: ${risk[r] ?? 0}`).join(', ');
  const shown =
    addresses.length > 20
      ? `${addresses.slice(0, 20).join(', ')} and ${addresses.length - 20} more`
      : addresses.join(', ');
  const findings = orderedEntries(info).filter(isFinding);
  const top = findings.slice(0, MAIL_TOP).map((v) => {
    const score = v.score !== null ? ` CVSS ${v.score.toFixed(1)}` : '';
    // wrap() also replaces control characters a banner may have put in a title.
    return para(`  [${RISK_LABEL[v.entry.risk]}${score}] ${v.entry.ip} port ${v.entry.port}: ${v.entry.title}`, '    ');
  });
  const more =
    findings.length > MAIL_TOP ? [`  ... and ${findings.length - MAIL_TOP} more in the attached report.`] : [];
  const text = [
    `Your ${b.scantype} audit ${b.scanuid} of ${b.hostip} has ${failed ? 'failed' : 'finished'}.`,
    '',
    ...para(`Addresses: ${shown}`, '  '),
    `Findings by risk: ${counts}`,
    `Open ports found: ${info.ports.length}`,
    '',
    findings.length
      ? `Most serious findings (${Math.min(MAIL_TOP, findings.length)} of ${findings.length}):`
      : 'No findings to report.',
    ...top.flat(),
    ...more,
    '',
    ...para(`What ran: ${b.summary ?? `${b.totalnaslentries} checks per address on ports ${b.scanportstcp}.`}`),
    '',
    `The full report is attached: ${attachmentName(b.scanuid)}`,
    '(open it in a browser, or print it to PDF). It is also available with',
    `saGetAuditReport.php, scanuid=${b.scanuid}.`,
    '',
  ].join('\n');
  return {
    to,
    subject: `Vigil audit ${b.scanuid} (${b.scantype}) of ${b.hostip}: ${failed ? 'failed' : counts}`,
    text,
    attachments: [
      {
        filename: attachmentName(b.scanuid),
        contentType: 'text/html; charset=utf-8',
        content: renderReport(info, 'html'),
      },
    ],
  };
}
