// A domain's master-file import and export, and the SOA settings.
import { useState } from 'preact/hooks';
import { ApiCallError, call } from './api.ts';
import { fieldOf, words } from './words.ts';

const say = (e: unknown) => (e instanceof ApiCallError ? words(e.code) : String(e));

export function ZoneTools({ domain, onChanged }: { domain: string; onChanged: () => void }) {
  const [imp, setImp] = useState<{ text: string; errors: string[]; warnings: string[]; bad: boolean } | null>(null);
  const [soa, setSoa] = useState<{ field?: string; text: string; bad: boolean } | null>(null);
  const doImport = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const zone = String(new FormData(form).get('zone'));
    try {
      const r: any = await call('dnsImportZone.php' as any, { domain, zone });
      const errors: string[] = r.errors ?? [];
      setImp({
        text: errors.length ? 'Nothing was imported.' : `Imported ${r.imported} records.`,
        errors,
        warnings: r.warnings ?? [],
        bad: errors.length > 0,
      });
      if (!errors.length) form.reset();
      onChanged();
    } catch (x) {
      setImp({ text: say(x), errors: [], warnings: [], bad: true });
    }
  };
  const exportZone = async () => {
    try {
      const zone = ((await call('dnsBuildZone.php', { domain })) as any).zone as string;
      const url = URL.createObjectURL(new Blob([zone], { type: 'text/plain' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `${domain}.zone`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (x) {
      setImp({ text: say(x), errors: [], warnings: [], bad: true });
    }
  };
  const setSOA = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const admin = String(f.get('admin')).trim();
    const ttl = String(f.get('ttl')).trim();
    try {
      await call('dnsSetSOA.php', { domain, admin: admin || undefined, ttl: ttl || undefined });
      setSoa({ text: 'SOA saved; publish to put it live.', bad: false });
      onChanged();
    } catch (x) {
      const code = x instanceof ApiCallError ? x.code : '';
      setSoa({ field: fieldOf(code, ['admin', 'ttl']), text: say(x), bad: true });
    }
  };
  return (
    <>
      <h2>SOA</h2>
      <form class="inline" onSubmit={setSOA} aria-label="Set SOA">
        <label>
          Admin e-mail{' '}
          <input
            name="admin"
            type="email"
            aria-invalid={soa?.field === 'admin' ? 'true' : undefined}
            aria-describedby="soa-msg"
          />
        </label>
        <label>
          Minimum TTL (seconds){' '}
          <input
            name="ttl"
            inputMode="numeric"
            aria-invalid={soa?.field === 'ttl' ? 'true' : undefined}
            aria-describedby="soa-msg"
          />
        </label>
        <button type="submit">Save SOA</button>
        <p id="soa-msg" class={soa?.bad ? 'error' : ''} role="status">
          {soa?.text}
        </p>
      </form>
      <h2>Master file</h2>
      <div class="actions">
        <button type="button" onClick={exportZone}>
          Export zone file
        </button>
      </div>
      <form onSubmit={doImport} aria-label="Import zone file" class="import">
        <label>
          Records to import (master-file text)
          <textarea name="zone" rows={6} required spellcheck={false} />
        </label>
        <button type="submit">Import</button>
      </form>
      <div aria-live="polite">
        {imp && (
          <div class={`panel ${imp.bad ? 'bad' : 'good'}`}>
            <p>{imp.text}</p>
            {imp.errors.length > 0 && (
              <ul>
                {imp.errors.map((x) => (
                  <li>{x}</li>
                ))}
              </ul>
            )}
            {imp.warnings.length > 0 && (
              <>
                <p>Warnings:</p>
                <ul>
                  {imp.warnings.map((x) => (
                    <li>{x}</li>
                  ))}
                </ul>
              </>
            )}
          </div>
        )}
      </div>
    </>
  );
}
