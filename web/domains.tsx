// Domains: the list with state badges and the account's credit figures, add
// a domain (one domain's page is domain-page.tsx).
import { useEffect, useState } from 'preact/hooks';
import { ApiCallError, call } from './api.ts';
import { words } from './words.ts';

const STATE_CLASS = ['unvalidated', 'errors', 'waiting', 'active'];

export function StateBadge({ state, text }: { state: number; text: string }) {
  return <span class={`badge state-${STATE_CLASS[state] ?? 'unknown'}`}>{text}</span>;
}

export function errText(err: unknown): string {
  return err instanceof ApiCallError ? words(err.code) : String(err);
}

/** The spec distributes every 5 minutes (section 3): the next multiple of 5 minutes. */
export function nextDistribution(now = new Date()): Date {
  const step = 5 * 60_000;
  return new Date(Math.ceil((now.getTime() + 1) / step) * step);
}

/** Vigil's readable times, `YYYY-MM-DD HH:MM:SS UTC` (not a form Date.parse must accept), as a Date. */
export function serverTime(text: unknown): Date | null {
  const m = typeof text === 'string' ? /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) UTC$/.exec(text) : null;
  const at = m ? new Date(`${m[1]}T${m[2]}Z`) : null;
  return at && !Number.isNaN(at.getTime()) ? at : null;
}

export function DomainsPage() {
  const [list, setList] = useState<any>(null);
  const [error, setError] = useState('');
  const [addError, setAddError] = useState('');
  // The credit total is not in the spec's domain list; accountGetInfo.php (an extension) has it.
  const [credits, setCredits] = useState<number | null>(null);
  const load = () => {
    call('accountGetInfo.php').then(
      (r: any) => setCredits(r.dnsCredits),
      () => setCredits(null),
    );
    return call('dnsGetDomainList.php').then(setList, (e) => setError(errText(e)));
  };
  useEffect(() => void load(), []);
  const add = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    setAddError('');
    try {
      await call('dnsAddDomain.php', {
        domain: String(f.get('domain')).trim(),
        domaintype: String(f.get('domaintype')),
        aup: f.get('aup') ? 'YES' : 'NO',
      });
      form.reset();
      await load();
    } catch (err) {
      setAddError(errText(err));
    }
  };
  const domains = list?.domains ? Object.values(list.domains as Record<string, any>) : [];
  return (
    <section>
      <h1>Domains</h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {list && (
        <dl class="figures">
          <div>
            <dt>Domains</dt>
            <dd>{list.domaincount}</dd>
          </div>
          <div>
            <dt>Credits used</dt>
            <dd>{list.domainweight}</dd>
          </div>
          {credits !== null && (
            <div>
              <dt>Credits left</dt>
              <dd>{Math.max(0, credits - Number(list.domainweight))}</dd>
            </div>
          )}
          <div>
            <dt>Expires</dt>
            <dd>{list.expiryreadable}</dd>
          </div>
        </dl>
      )}
      <div class="scroll">
        <table>
          <caption class="sr-only">Your domains</caption>
          <thead>
            <tr>
              <th scope="col">Domain</th>
              <th scope="col">State</th>
              <th scope="col">Weight</th>
            </tr>
          </thead>
          <tbody>
            {domains.map((d: any) => (
              <tr key={d.seq}>
                <td>
                  <a href={`#/domains/${encodeURIComponent(d.domain)}`}>{d.domain}</a>
                </td>
                <td>
                  <StateBadge state={Number(d.state)} text={d.stateText} />
                </td>
                <td>{d.weight}</td>
              </tr>
            ))}
            {list && domains.length === 0 && (
              <tr>
                <td colSpan={3}>No domains yet.</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <h2>Add a domain</h2>
      <form class="inline" onSubmit={add}>
        <label>
          Domain name{' '}
          <input
            name="domain"
            required
            aria-invalid={addError ? 'true' : undefined}
            aria-describedby="add-domain-error"
          />
        </label>
        <label>
          Type{' '}
          <select aria-label="Domain type" name="domaintype">
            <option value="master">master</option>
            <option value="slave">slave</option>
          </select>
        </label>
        <label class="check">
          <input type="checkbox" name="aup" /> I accept the acceptable use policy
        </label>
        <button type="submit">Add domain</button>
        <p id="add-domain-error" class="error" role="alert">
          {addError}
        </p>
      </form>
    </section>
  );
}
