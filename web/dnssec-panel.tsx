// A domain's DNSSEC (issue 29): signing on or off, NSEC or NSEC3, the DS to
// give the registrar with a copy button, the KSK roll and the state of each
// key. Only the API scripts: dnsGetDNSSEC, dnsSetDNSSEC, dnsRollDNSSECKey.
import { useEffect, useState } from 'preact/hooks';
import { ApiCallError, call } from './api.ts';
import { words } from './words.ts';

type Key = {
  tag: number;
  role: 'ksk' | 'zsk';
  algorithm: number;
  signing: boolean;
  activeAt: number;
  retireAt: number | null;
  removeAt: number | null;
};
type Status = { enabled: boolean; nsec3: boolean; ds: string[]; keys: Key[] };
type Note = { text: string; bad: boolean };

const say = (e: unknown) => (e instanceof ApiCallError ? words(e.code) : String(e));
const ALGORITHMS: Record<number, string> = { 13: 'ECDSA P-256 with SHA-256', 15: 'Ed25519' };
const when = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** What a key is doing now, in words (the schedule is src/dns/dnssec/keyring.ts's). */
function keyState(k: Key, now: number): string {
  if (k.signing) return k.retireAt !== null ? `signing until ${when(k.retireAt)}` : 'signing';
  if (k.retireAt !== null && k.retireAt <= now)
    return k.removeAt !== null ? `retired, leaves the zone ${when(k.removeAt)}` : 'retired';
  return `published, signs from ${when(k.activeAt)}`;
}

/** A DS line `zone. 3600 IN DS tag alg type digest`: the fields a registrar's form asks for one by one. */
function dsFields(line: string) {
  const [, , , , tag, algorithm, digestType, ...digest] = line.split(/\s+/);
  return { tag, algorithm, digestType, digest: digest.join('') };
}

async function copyText(text: string): Promise<void> {
  // The Clipboard API needs a secure context, which the console always is (HTTPS only).
  await navigator.clipboard.writeText(text);
}

export function DnssecPanel({ domain }: { domain: string }) {
  const [s, setS] = useState<Status | null>(null);
  const [note, setNote] = useState<Note | null>(null);
  const [copied, setCopied] = useState('');
  const load = () =>
    call('dnsGetDNSSEC.php', { domain }).then(
      (r) => setS(r as Status),
      (e) => setNote({ text: say(e), bad: true }),
    );
  useEffect(() => void load(), [domain]);

  const save = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const enable = f.get('enable') ? 'YES' : 'NO';
    const nsec3 = f.get('nsec3') === 'YES' ? 'YES' : 'NO';
    if (
      s?.enabled &&
      enable === 'NO' &&
      !confirm(
        `Stop signing ${domain}? Remove the DS at your registrar first and wait a day: a parent that still has the DS makes the zone fail to resolve. The keys are deleted.`,
      )
    )
      return;
    try {
      const r = (await call('dnsSetDNSSEC.php', { domain, enable, nsec3 })) as Status;
      setS(r);
      setCopied('');
      setNote({
        text: r.enabled
          ? `Saved: signed with ${r.nsec3 ? 'NSEC3' : 'NSEC'} from the next distribution.`
          : 'Saved: the zone is served unsigned from the next distribution.',
        bad: false,
      });
    } catch (x) {
      setNote({ text: say(x), bad: true });
    }
  };

  const rolling = (s?.keys ?? []).filter((k) => k.role === 'ksk' && k.signing).length > 1;
  const roll = async () => {
    if (
      rolling &&
      !confirm('Finish the KSK roll? Only once your registrar shows the new DS alone, and a day has passed since.')
    )
      return;
    try {
      const r = (await call('dnsRollDNSSECKey.php', { domain })) as Status & { step: string };
      setS(r);
      setCopied('');
      setNote({
        text:
          r.step === 'started'
            ? 'KSK roll started: give your registrar the new DS below, beside the old one.'
            : 'KSK roll finished: remove the old DS at your registrar.',
        bad: false,
      });
    } catch (x) {
      setNote({ text: say(x), bad: true });
    }
  };

  const copy = async (line: string, tag: string | undefined) => {
    try {
      await copyText(line);
      setCopied(`DS record ${tag} copied.`);
    } catch {
      setCopied('Copying was refused by the browser: select the record and copy it.');
    }
  };

  const now = Date.now();
  return (
    <section class="dnssec" aria-labelledby="dnssec-heading">
      <h2 id="dnssec-heading">DNSSEC</h2>
      {s && (
        <form class="dnssec-settings" onSubmit={save} aria-label="DNSSEC settings" key={`${s.enabled}${s.nsec3}`}>
          <label class="check">
            <input type="checkbox" name="enable" defaultChecked={s.enabled} /> Sign this zone (DNSSEC)
          </label>
          <fieldset>
            <legend>Proof that a name does not exist</legend>
            <label class="check">
              <input type="radio" name="nsec3" value="NO" defaultChecked={!s.nsec3} /> NSEC: smallest answers; the
              zone's names can be listed
            </label>
            <label class="check">
              <input type="radio" name="nsec3" value="YES" defaultChecked={s.nsec3} /> NSEC3: no salt, no extra
              iterations; the names cannot be listed by walking the zone
            </label>
          </fieldset>
          <button type="submit">Save DNSSEC settings</button>
        </form>
      )}
      <p id="dnssec-msg" class={note?.bad ? 'error' : ''} role="status">
        {note?.text}
      </p>
      {s?.enabled && (
        <>
          <h3>DS record for your registrar</h3>
          {!s.ds.length && (
            <p>The keys are made at the next distribution; the DS record to give your registrar shows here then.</p>
          )}
          {s.ds.map((line) => {
            const d = dsFields(line);
            return (
              <div class="ds" key={line}>
                <code class="mono">{line}</code>
                <button type="button" aria-label={`Copy DS record ${d.tag}`} onClick={() => copy(line, d.tag)}>
                  Copy
                </button>
                <dl class="figures">
                  <div>
                    <dt>Key tag</dt>
                    <dd>{d.tag}</dd>
                  </div>
                  <div>
                    <dt>Algorithm</dt>
                    <dd>
                      {d.algorithm} {ALGORITHMS[Number(d.algorithm)] ? `(${ALGORITHMS[Number(d.algorithm)]})` : ''}
                    </dd>
                  </div>
                  <div>
                    <dt>Digest type</dt>
                    <dd>{d.digestType} (SHA-256)</dd>
                  </div>
                  <div>
                    <dt>Digest</dt>
                    <dd class="mono digest">{d.digest}</dd>
                  </div>
                </dl>
              </div>
            );
          })}
          <p role="status" class="muted">
            {copied}
          </p>
          {s.keys.length > 0 && (
            <div class="scroll">
              <table>
                <caption>Keys</caption>
                <thead>
                  <tr>
                    <th scope="col">Tag</th>
                    <th scope="col">Role</th>
                    <th scope="col">Algorithm</th>
                    <th scope="col">State</th>
                  </tr>
                </thead>
                <tbody>
                  {s.keys.map((k) => (
                    <tr key={`${k.role}${k.tag}`}>
                      <td>{k.tag}</td>
                      <td>{k.role === 'ksk' ? 'KSK (the DS names it)' : 'ZSK (rolls by itself)'}</td>
                      <td>{ALGORITHMS[k.algorithm] ?? k.algorithm}</td>
                      <td>{keyState(k, now)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {s.ds.length > 0 && (
            <div class="actions">
              <button type="button" onClick={roll}>
                {rolling ? 'Finish the KSK roll' : 'Start a KSK roll'}
              </button>
              <small>
                {rolling
                  ? 'Two KSKs sign: give the registrar the new DS, wait a day after it shows, then finish.'
                  : 'A new KSK signs beside the old one; you then give the registrar its DS.'}
              </small>
            </div>
          )}
        </>
      )}
    </section>
  );
}
