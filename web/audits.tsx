// Audits: the list with live status (polled every 3 s while any audit is
// queued or running, with the `progress` extension field) and the run form
// (its ports field: saRunAudit's `ports`). A scheduled run links to the
// Schedules page (#/schedules); a failed audit says why (`statusText`).
import { useEffect, useState } from 'preact/hooks';
import { ApiCallError, call } from './api.ts';
import { fieldOf, words } from './words.ts';

// accountGetInfo.php's order is the operator's; this one reads from light to heavy.
const TYPES = ['basic', 'standard', 'advanced', 'desktop', 'norisk'];
const PHASES: Record<string, string> = {
  queued: 'Queued',
  scanning: 'Scanning ports',
  detecting: 'Detecting services',
  checking: 'Running checks',
  reporting: 'Writing the report',
};

function Progress({ p }: { p: any }) {
  const total = Number(p.portsTotal) + Number(p.checksTotal);
  const done = Number(p.portsScanned) + Number(p.checksDone);
  return (
    <span>
      {PHASES[p.phase] ?? p.phase}{' '}
      <progress max={total || 1} value={done} aria-label="Audit progress">
        {done}/{total}
      </progress>{' '}
      <small>
        ports {p.portsScanned}/{p.portsTotal}, checks {p.checksDone}/{p.checksTotal}
      </small>
    </span>
  );
}

/** `failed: <code>` in words: a refused scheduled run names the check it failed (words.ts). */
function failedText(statusText: string | undefined): string {
  const code = statusText?.replace(/^failed: /, '');
  return code ? `Failed: ${words(code)}` : 'Failed';
}

export function AuditsPage() {
  const [list, setList] = useState<any>(null);
  const [error, setError] = useState('');
  const [runErr, setRunErr] = useState<{ field?: string; text: string } | null>(null);
  const [queued, setQueued] = useState('');
  // The run form offers only what the account may run (accountGetInfo.php); null until known.
  const [info, setInfo] = useState<{ auditTypes: string[]; allowedAddresses: string[] } | null>(null);
  const load = () =>
    call('saGetAuditList.php').then(setList, (e) => setError(e instanceof ApiCallError ? words(e.code) : String(e)));
  const scans: any[] = list?.scans ?? [];
  const live = scans.some((s) => s.progress || !s.time_end);
  useEffect(() => {
    void load();
    call('accountGetInfo.php').then(
      (r: any) => setInfo(r),
      () => setInfo({ auditTypes: TYPES, allowedAddresses: [] }),
    );
  }, []);
  const types = info ? TYPES.filter((t) => info.auditTypes.includes(t)) : [];
  useEffect(() => {
    if (!live) return;
    const t = setInterval(load, 3000);
    return () => clearInterval(t);
  }, [live]);
  const run = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    setRunErr(null);
    setQueued('');
    try {
      const ip = String(f.get('ipaddr')).trim();
      const r: any = await call('saRunAudit.php', {
        ipaddr: ip || undefined,
        audittype: String(f.get('audittype')),
        excludedos: f.get('excludedos') ? '1' : undefined,
        notification: f.get('notification') ? 'OCMP' : undefined,
        // Blank: the audit type's own list (an empty `ports` would be refused as an empty item).
        ports: String(f.get('ports') ?? '').trim() || undefined,
      });
      setQueued(r.scanuid ? `Audit ${r.scanuid} queued.` : 'Audit queued.');
      await load();
    } catch (x) {
      const code = x instanceof ApiCallError ? x.code : '';
      setRunErr({
        field: fieldOf(code, ['ipaddr', 'audittype', 'ports']),
        text: x instanceof ApiCallError ? words(code) : String(x),
      });
    }
  };
  const sorted = [...scans].sort((a, b) => Number(b.scanuid) - Number(a.scanuid));
  return (
    <section>
      <h1>Audits</h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <h2>Run an audit</h2>
      {info && types.length === 0 && <p>Your account has no audit entitlement; your operator can add one.</p>}
      {types.length > 0 && (
        <form class="inline" onSubmit={run}>
          <label>
            Targets{' '}
            <input
              name="ipaddr"
              placeholder="your address when blank"
              aria-invalid={runErr?.field === 'ipaddr' ? 'true' : undefined}
              aria-describedby="run-error run-allowed"
            />
          </label>
          <label>
            Audit type{' '}
            <select
              aria-label="Audit type"
              name="audittype"
              aria-invalid={runErr?.field === 'audittype' ? 'true' : undefined}
            >
              {types.map((t) => (
                <option value={t}>{t}</option>
              ))}
            </select>
          </label>
          <label>
            Ports{' '}
            <input
              name="ports"
              placeholder="the type's list when blank"
              title="TCP ports and ranges, e.g. 22,80,443,8000-8100"
              aria-invalid={runErr?.field === 'ports' ? 'true' : undefined}
              aria-describedby="run-error"
            />
          </label>
          <label class="check">
            <input type="checkbox" name="excludedos" /> Exclude denial-of-service tests
          </label>
          <label class="check">
            <input type="checkbox" name="notification" /> E-mail me when done
          </label>
          <button type="submit">Run audit</button>
          <p id="run-error" class="error" role="alert">
            {runErr?.text}
          </p>
          <p role="status">{queued}</p>
          {info && info.allowedAddresses.length > 0 && (
            <p id="run-allowed" class="hint">
              You may audit: <span class="mono">{info.allowedAddresses.join(', ')}</span>
            </p>
          )}
        </form>
      )}
      <h2>Your audits</h2>
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Audit</th>
              <th scope="col">Targets</th>
              <th scope="col">Type</th>
              <th scope="col">Queued</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody aria-live="polite">
            {sorted.map((s) => (
              <tr key={s.scanuid}>
                <td>
                  {s.time_end ? (
                    <a href={`#/audits/${encodeURIComponent(s.scanuid)}`}>Report {s.scanuid}</a>
                  ) : (
                    s.scanuid
                  )}
                </td>
                <td class="mono">{s.hostip}</td>
                <td>
                  {s.type}
                  {s.scheduleid && (
                    <>
                      {' '}
                      <a href={`#/schedules/${encodeURIComponent(s.scheduleid)}`}>Schedule {s.scheduleid}</a>
                    </>
                  )}
                </td>
                <td>{s.time_queued}</td>
                <td>
                  {s.progress ? (
                    <Progress p={s.progress} />
                  ) : s.folder === 'failed' ? (
                    <span class="badge state-errors">{failedText(s.statusText)}</span>
                  ) : s.time_end ? (
                    <span class="badge state-active">Done {s.time_end}</span>
                  ) : (
                    'Waiting'
                  )}
                </td>
              </tr>
            ))}
            {list && sorted.length === 0 && (
              <tr>
                <td colSpan={5}>No audits yet.</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
