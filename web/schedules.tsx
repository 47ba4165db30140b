// Schedules: audits that run every day, week or month (saScheduleAudit,
// saGetScheduleList, saDeleteSchedule): the form, the list with each
// one's next run and latest audit, and delete. #/schedules/<id> marks one
// (the Audits page links each scheduled run here).
import { useEffect, useState } from 'preact/hooks';
import type { CallReply } from '../src/client/types.ts';
import { ApiCallError, call } from './api.ts';
import { fieldOf, words } from './words.ts';

type Schedule = NonNullable<CallReply<'saGetScheduleList.php'>['schedules']>[number];

const TYPES = ['basic', 'standard', 'advanced', 'desktop', 'norisk'];
const FIELDS = ['ipaddr', 'audittype', 'every', 'alert', 'ports'];

/** `2026-11-30T12:00:00Z` as the audit list writes times: `2026-11-30 12:00:00 UTC`. */
const when = (iso: string) => `${iso.replace('T', ' ').replace('Z', '')} UTC`;

export function SchedulesPage({ marked }: { marked?: string }) {
  const [list, setList] = useState<Schedule[] | null>(null);
  const [error, setError] = useState('');
  const [formErr, setFormErr] = useState<{ field?: string; text: string } | null>(null);
  const [done, setDone] = useState('');
  const [types, setTypes] = useState<string[] | null>(null);
  const load = () =>
    call('saGetScheduleList.php').then(
      (r) => setList(r.schedules ?? []),
      (e) => setError(e instanceof ApiCallError ? words(e.code) : String(e)),
    );
  useEffect(() => {
    void load();
    call('accountGetInfo.php').then(
      (r) => setTypes(TYPES.filter((t) => (r.auditTypes as readonly string[]).includes(t))),
      () => setTypes(TYPES),
    );
  }, []);
  const add = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const text = (name: string) => String(f.get(name) ?? '').trim() || undefined;
    setFormErr(null);
    setDone('');
    try {
      const r = await call('saScheduleAudit.php', {
        ipaddr: text('ipaddr'),
        audittype: String(f.get('audittype')),
        every: String(f.get('every')),
        alert: String(f.get('alert')),
        ports: text('ports'),
        excludedos: f.get('excludedos') ? '1' : undefined,
        notification: f.get('notification') ? 'OCMP' : undefined,
      });
      setDone(`Schedule ${r.scheduleid} added.`);
      (e.target as HTMLFormElement).reset();
      await load();
    } catch (x) {
      const code = x instanceof ApiCallError ? x.code : '';
      setFormErr({ field: fieldOf(code, FIELDS), text: x instanceof ApiCallError ? words(code) : String(x) });
    }
  };
  const remove = async (id: string) => {
    setError('');
    try {
      await call('saDeleteSchedule.php', { scheduleid: id });
      setDone(`Schedule ${id} deleted; its audits stay.`);
      await load();
    } catch (x) {
      setError(x instanceof ApiCallError ? words(x.code) : String(x));
    }
  };
  const invalid = (name: string) => (formErr?.field === name ? 'true' : undefined);
  return (
    <section>
      <h1>Schedules</h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <h2>Add a schedule</h2>
      {types && types.length === 0 && <p>Your account has no audit entitlement; your operator can add one.</p>}
      {types && types.length > 0 && (
        <form class="inline" onSubmit={add} aria-label="Add a schedule">
          <label>
            Targets <input name="ipaddr" placeholder="your address when blank" aria-invalid={invalid('ipaddr')} />
          </label>
          <label>
            Audit type{' '}
            <select name="audittype" aria-label="Audit type" aria-invalid={invalid('audittype')}>
              {types.map((t) => (
                <option value={t}>{t}</option>
              ))}
            </select>
          </label>
          <label>
            Every{' '}
            <select name="every" aria-label="Every" aria-invalid={invalid('every')}>
              <option value="day">day</option>
              <option value="week">week</option>
              <option value="month">month</option>
            </select>
          </label>
          <label>
            Mail{' '}
            <select name="alert" aria-label="Mail" aria-invalid={invalid('alert')}>
              <option value="always">after every run</option>
              <option value="changes">only when something changed</option>
            </select>
          </label>
          <label>
            Ports{' '}
            <input
              name="ports"
              placeholder="the type's list when blank"
              title="TCP ports and ranges, e.g. 22,80,443,8000-8100"
              aria-invalid={invalid('ports')}
            />
          </label>
          <label class="check">
            <input type="checkbox" name="excludedos" /> Exclude denial-of-service tests
          </label>
          <label class="check">
            <input type="checkbox" name="notification" defaultChecked /> E-mail me
          </label>
          <button type="submit">Add schedule</button>
          <p class="error" role="alert">
            {formErr?.text}
          </p>
          <p role="status">{done}</p>
          <p class="hint">The first run is one period from now, at this time of day (UTC).</p>
        </form>
      )}
      <h2>Your schedules</h2>
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Schedule</th>
              <th scope="col">Targets</th>
              <th scope="col">Type</th>
              <th scope="col">Every</th>
              <th scope="col">Mail</th>
              <th scope="col">Next run</th>
              <th scope="col">Latest audit</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {(list ?? []).map((s) => (
              <tr key={s.scheduleid} aria-current={s.scheduleid === marked ? 'true' : undefined}>
                <td>{s.scheduleid}</td>
                <td class="mono">
                  {s.ipaddr}
                  {s.ports && <small> ports {s.ports}</small>}
                </td>
                <td>
                  {s.audittype}
                  {s.excludedos && <small> without denial-of-service tests</small>}
                </td>
                <td>{s.every}</td>
                <td>{!s.notification ? 'none' : s.alert === 'changes' ? 'on change' : 'every run'}</td>
                <td>{when(s.nextrun)}</td>
                <td>
                  {s.lastscanuid ? (
                    <a href={`#/audits/${encodeURIComponent(s.lastscanuid)}`}>Audit {s.lastscanuid}</a>
                  ) : (
                    'none yet'
                  )}
                </td>
                <td>
                  <button
                    type="button"
                    class="quiet"
                    aria-label={`Delete schedule ${s.scheduleid}`}
                    onClick={() => void remove(s.scheduleid)}
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
            {list && list.length === 0 && (
              <tr>
                <td colSpan={8}>No schedules yet.</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
