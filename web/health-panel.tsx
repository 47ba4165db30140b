// A domain's Health tab (issue 30): dnsCheckDomain.php's findings grouped by
// level, most serious first, each with the name it concerns, what is wrong
// and the fix. Only the API script; the check runs when the tab opens and on
// "Check again".
import { useEffect, useState } from 'preact/hooks';
import { ApiCallError, call } from './api.ts';
import { words } from './words.ts';

type Finding = {
  id: string;
  level: 'ERROR' | 'WARNING' | 'NOTICE' | 'INFO';
  name: string;
  message: string;
  solution: string;
};
type Report = { findings: Finding[]; checked: string };

const LEVELS = [
  ['ERROR', 'Errors', 'high'],
  ['WARNING', 'Warnings', 'medium'],
  ['NOTICE', 'Notices', 'low'],
  ['INFO', 'Information', 'muted'],
] as const;

const say = (e: unknown) => (e instanceof ApiCallError ? words(e.code) : String(e));

export function HealthPanel({ domain }: { domain: string }) {
  const [report, setReport] = useState<Report | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const run = async () => {
    setBusy(true);
    setError('');
    try {
      setReport((await call('dnsCheckDomain.php', { domain })) as Report);
    } catch (e) {
      setError(say(e));
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => void run(), [domain]);
  const findings = report?.findings ?? [];
  return (
    <section aria-labelledby="health-title">
      <h2 id="health-title">Health</h2>
      <p class="muted">
        The zone as a publish now would serve it, the world as the server's resolver sees it, and the mail and web hosts
        it names that your account may audit.
      </p>
      <div class="actions">
        <button type="button" onClick={run} disabled={busy}>
          {busy ? 'Checking…' : 'Check again'}
        </button>
      </div>
      <div aria-live="polite">
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        {report && !busy && (
          <p>
            Checked {report.checked.slice(0, 19).replace('T', ' ')} UTC:{' '}
            {findings.length ? `${findings.length} finding${findings.length > 1 ? 's' : ''}` : 'nothing to report'}.
          </p>
        )}
      </div>
      {report &&
        LEVELS.map(([level, title, tone]) => {
          const at = findings.filter((f) => f.level === level);
          if (!at.length) return null;
          return (
            <section class={`health health-${tone}`} aria-label={`${title} (${at.length})`}>
              <h3>
                {title} ({at.length})
              </h3>
              <ul>
                {at.map((f) => (
                  <li key={`${f.id} ${f.name} ${f.message}`}>
                    <strong class="mono">{f.name}</strong>: {f.message}
                    <br />
                    <span class="muted">Fix: {f.solution}</span> <code class="muted">{f.id}</code>
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
    </section>
  );
}
