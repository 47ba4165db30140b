import type { UserSession } from './session.ts';

/** An entry of saGetAuditList's `scans`; `progress` is Vigil's extension field while queued or running. */
export interface AuditEntry {
  scanuid: string;
  folder: string;
  hostip: string;
  type: string;
  time_queued: string;
  time_start: string;
  time_end: string;
  progress?: { phase: string; portsScanned: number; portsTotal: number; checksDone: number; checksTotal: number };
  /** A failed audit's reason, `failed: <code>` (extension field). */
  statusText?: string;
  /** The schedule whose run it is (extension field). */
  scheduleid?: string;
}

export const ENDED = new Set(['done', 'failed']);

export async function auditList(s: UserSession): Promise<AuditEntry[]> {
  return ((await s.call('saGetAuditList.php', {})).scans ?? []) as AuditEntry[];
}

export function progressText(e: AuditEntry): string {
  const p = e.progress;
  if (!p) return e.folder;
  if (p.phase === 'queued') return 'queued';
  return `${p.phase}: ports ${p.portsScanned}/${p.portsTotal}, checks ${p.checksDone}/${p.checksTotal}`;
}

/**
 * Polls the list until the audit is done or failed, showing its progress
 * on stderr (stdout stays for the result): on a terminal one line
 * rewritten in place, elsewhere one line per change, so a log of a CI
 * job reads as a history rather than a smear of carriage returns.
 */
export async function waitForEnd(s: UserSession, scanuid: string, pollMs: number): Promise<AuditEntry> {
  const tty = process.stderr.isTTY;
  let last = '';
  for (;;) {
    const e = (await auditList(s)).find((x) => x.scanuid === scanuid);
    if (!e) throw new Error(`audit ${scanuid} is no longer in the list`);
    const line = `audit ${scanuid}: ${ENDED.has(e.folder) ? e.folder : progressText(e)}`;
    if (line !== last) {
      process.stderr.write(tty ? `\r\x1b[K${line}` : `${line}\n`);
      last = line;
    }
    if (ENDED.has(e.folder)) {
      if (tty) process.stderr.write('\n');
      return e;
    }
    await new Promise((res) => setTimeout(res, pollMs));
  }
}
