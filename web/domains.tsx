// Domains: the list with state badges and the account's credit figures, add
// a domain; one domain's records, add forms per type with each field's
// error in place, delete with confirmation, publish, the zone text.
import { useEffect, useState } from 'preact/hooks';
import { ApiCallError, call } from './api.ts';
import { fieldOf, words } from './words.ts';
import { describe, OPTIONS_TYPE, RECORD_FORMS, type RecordForm, SOA_TYPE, ttlText } from './record-forms.ts';
import { DnssecPanel } from './dnssec-panel.tsx';
import { ZoneTools } from './zone-tools.tsx';

/** A record as dnsGetDomainRecords.php gives it. */
type RecordRow = { seq: number | string; type: string; data: Record<string, unknown> };

const STATE_CLASS = ['unvalidated', 'errors', 'waiting', 'active'];

export function StateBadge({ state, text }: { state: number; text: string }) {
  return <span class={`badge state-${STATE_CLASS[state] ?? 'unknown'}`}>{text}</span>;
}

function errText(err: unknown): string {
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

function AddRecord({ domain, form, onAdded }: { domain: string; form: RecordForm; onAdded: () => void }) {
  const [err, setErr] = useState<{ field?: string; text: string } | null>(null);
  const names = form.fields.map((f) => f.name);
  const submit = async (e: Event) => {
    e.preventDefault();
    const el = e.currentTarget as HTMLFormElement;
    const data = new FormData(el);
    const fields: Record<string, string | undefined> = { domain };
    for (const n of names) {
      const v = String(data.get(n) ?? '');
      fields[n] = v === '' && n === 'ttl' ? undefined : v;
    }
    setErr(null);
    try {
      await call(form.script as any, fields);
      el.reset();
      onAdded();
    } catch (x) {
      const code = x instanceof ApiCallError ? x.code : '';
      setErr({ field: fieldOf(code, names, form.fields), text: errText(x) });
    }
  };
  const id = (n: string) => `rec-${form.type.replace(/\W/g, '')}-${n}`;
  return (
    <form class="record-form" onSubmit={submit} aria-label={`Add ${form.type} record`}>
      {form.fields.map((f) => (
        <div class="field" key={f.name}>
          <label for={id(f.name)}>{f.label}</label>
          <input
            id={id(f.name)}
            name={f.name}
            required={!f.optional}
            aria-invalid={err?.field === f.name ? 'true' : undefined}
            aria-describedby={err?.field === f.name ? id(`${f.name}-error`) : f.hint ? id(`${f.name}-hint`) : undefined}
          />
          {f.hint && <small id={id(`${f.name}-hint`)}>{f.hint}</small>}
          {err?.field === f.name && (
            <span id={id(`${f.name}-error`)} class="error" role="alert">
              {err.text}
            </span>
          )}
        </div>
      ))}
      <button type="submit">{form.type === OPTIONS_TYPE ? 'Save options' : `Add ${form.type} record`}</button>
      {err && !err.field && (
        <p class="error" role="alert">
          {err.text}
        </p>
      )}
    </form>
  );
}

export function DomainPage({ domain }: { domain: string }) {
  const [recs, setRecs] = useState<any>(null);
  const [error, setError] = useState('');
  const [type, setType] = useState(RECORD_FORMS[0]!.type);
  const [pub, setPub] = useState<{ warnings: string[]; errors: string[]; at?: Date; failed?: string } | null>(null);
  const [zone, setZone] = useState<string | null>(null);
  const load = () => call('dnsGetDomainRecords.php', { domain }).then(setRecs, (e) => setError(errText(e)));
  useEffect(() => void load(), [domain]);
  const del = async (seq: string, what: string) => {
    if (!confirm(`Delete the record ${what}? It stays on the name servers until you publish.`)) return;
    try {
      await call('dnsDeleteRecord.php', { seq });
      await load();
    } catch (e) {
      setError(errText(e));
    }
  };
  const delDomain = async () => {
    if (!confirm(`Delete ${domain} and all its records? This cannot be undone.`)) return;
    try {
      await call('dnsDeleteDomain.php', { domain });
      location.hash = '#/domains';
    } catch (e) {
      setError(errText(e));
    }
  };
  const publish = async () => {
    setPub(null);
    try {
      const r: any = await call('dnsPublish.php', { domain });
      const errors = r.errors ?? [];
      // Vigil's publish reply says when the waiting version goes live (the operator's
      // --publish-interval); only without it, the spec's 5-minute cycle.
      const at = serverTime(r.nextDistribution) ?? nextDistribution();
      setPub({ warnings: r.warnings ?? [], errors, ...(errors.length ? {} : { at }) });
    } catch (e) {
      setPub({ warnings: [], errors: [], failed: errText(e) });
    }
    await load();
  };
  const preview = async () => {
    try {
      setZone((await call('dnsBuildZone.php', { domain })).zone);
    } catch (e) {
      setZone(errText(e));
    }
  };
  const records = recs?.records ? Object.values(recs.records as Record<string, RecordRow>) : [];
  const form = RECORD_FORMS.find((f) => f.type === type)!;
  return (
    <section>
      <p>
        <a href="#/domains">← All domains</a>
      </p>
      <h1>
        {domain} {recs && <StateBadge state={Number(recs.state)} text={recs.stateText} />}
      </h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="button" onClick={publish}>
          Publish
        </button>
        <button type="button" onClick={preview}>
          Show zone text
        </button>
        <button type="button" class="danger" onClick={delDomain}>
          Delete domain
        </button>
      </div>
      <div aria-live="polite">
        {pub && (
          <div class={`panel ${pub.errors.length || pub.failed ? 'bad' : 'good'}`}>
            {pub.failed && <p class="error">{pub.failed}</p>}
            {!pub.failed && !pub.errors.length && (
              <p>
                Published. The name servers take the change at the next distribution,{' '}
                {pub.at!.toISOString().slice(0, 19).replace('T', ' ')} UTC.
              </p>
            )}
            {pub.errors.length > 0 && (
              <>
                <h2>Errors</h2>
                <ul>
                  {pub.errors.map((e) => (
                    <li>{e}</li>
                  ))}
                </ul>
              </>
            )}
            {pub.warnings.length > 0 && (
              <>
                <h2>Warnings</h2>
                <ul>
                  {pub.warnings.map((e) => (
                    <li>{e}</li>
                  ))}
                </ul>
              </>
            )}
          </div>
        )}
      </div>
      {zone !== null && (
        // A scrolling region must take keyboard focus (axe scrollable-region-focusable); the label names it.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: see above
        // biome-ignore lint/a11y/useAriaPropsSupportedByRole: see above
        <pre class="zone" aria-label="Zone text" tabIndex={0}>
          {zone}
        </pre>
      )}
      <h2>Records</h2>
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Record</th>
              <th scope="col">TTL</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {records.map((r) => {
              const what = `${r.type} ${describe(r.type, r.data)}`;
              return (
                <tr key={r.seq}>
                  <td>{r.type}</td>
                  <td class="mono">{describe(r.type, r.data)}</td>
                  <td>{ttlText(records, r.data)}</td>
                  <td>
                    {r.type !== SOA_TYPE && (
                      <button
                        type="button"
                        class="quiet"
                        aria-label={`Delete ${what}`}
                        onClick={() => del(String(r.seq), what)}
                      >
                        Delete
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <h2>Add a record</h2>
      <label>
        Record type{' '}
        <select
          aria-label="Record type"
          value={type}
          onChange={(e) => setType((e.currentTarget as HTMLSelectElement).value)}
        >
          {RECORD_FORMS.map((f) => (
            <option value={f.type}>{f.type}</option>
          ))}
        </select>
      </label>
      <AddRecord key={type} domain={domain} form={form} onAdded={load} />
      <ZoneTools domain={domain} onChanged={load} />
      <DnssecPanel domain={domain} />
    </section>
  );
}
