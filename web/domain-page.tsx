// One domain's page: its records, add forms per type with each field's error
// in place, delete with confirmation, publish, the zone text, zone tools and
// DNSSEC (the Records tab), and its health (the Health tab, issue 30).
import { useEffect, useState } from 'preact/hooks';
import { ApiCallError, call } from './api.ts';
import { fieldOf } from './words.ts';
import { describe, OPTIONS_TYPE, RECORD_FORMS, type RecordForm, SOA_TYPE, ttlText } from './record-forms.ts';
import { DnssecPanel } from './dnssec-panel.tsx';
import { ZoneTools } from './zone-tools.tsx';
import { HealthPanel } from './health-panel.tsx';
import { errText, nextDistribution, serverTime, StateBadge } from './domains.tsx';

/** A record as dnsGetDomainRecords.php gives it. */
type RecordRow = { seq: number | string; type: string; data: Record<string, unknown> };

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
  const [tab, setTab] = useState<'records' | 'health'>('records');
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
      <div class="tabs" role="tablist" aria-label="Domain views">
        <button type="button" role="tab" aria-selected={tab === 'records'} onClick={() => setTab('records')}>
          Records
        </button>
        <button type="button" role="tab" aria-selected={tab === 'health'} onClick={() => setTab('health')}>
          Health
        </button>
      </div>
      {tab === 'health' ? (
        <HealthPanel domain={domain} />
      ) : (
        <>
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
        </>
      )}
    </section>
  );
}
