// The console's shell: log in, the navigation, and a hash route per page
// (#/domains, #/domains/<name>, #/audits, #/audits/<scanuid>, #/schedules,
// #/schedules/<id>, #/account).
// Hash routes need nothing from the server but `/`.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiCallError, loadSession, login, saveSession, whenSessionEnds, type Session } from './api.ts';
import { words } from './words.ts';
import { DomainsPage } from './domains.tsx';
import { DomainPage } from './domain-page.tsx';
import { AuditsPage } from './audits.tsx';
import { SchedulesPage } from './schedules.tsx';
import { ReportPage } from './report.tsx';
import { AccountPage } from './account.tsx';

function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const f = () => setHash(location.hash);
    addEventListener('hashchange', f);
    return () => removeEventListener('hashchange', f);
  }, []);
  return hash;
}

function Login({ onIn, notice }: { onIn: (s: Session) => void; notice: string }) {
  const [error, setError] = useState(notice);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    setBusy(true);
    try {
      const s = await login(String(f.get('apikey')), String(f.get('userid')), String(f.get('password')));
      saveSession(s);
      onIn(s);
    } catch (err) {
      setError(err instanceof ApiCallError ? words(err.code) : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="login">
      <h1>Vigil</h1>
      <form onSubmit={submit} aria-describedby="login-error">
        <label for="apikey">API key</label>
        <input id="apikey" name="apikey" autocomplete="off" required spellcheck={false} />
        <label for="userid">User ID</label>
        <input id="userid" name="userid" autocomplete="username" required />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit" disabled={busy}>
          Log in
        </button>
        <p id="login-error" class="error" role="alert">
          {error}
        </p>
      </form>
    </main>
  );
}

function App() {
  const [session, setSession] = useState<Session | null>(loadSession());
  const [notice, setNotice] = useState('');
  const hash = useHash();
  useEffect(() => {
    whenSessionEnds((code) => {
      saveSession(null);
      setSession(null);
      setNotice(words(code));
    });
  }, []);
  if (!session)
    return (
      <Login
        onIn={(s) => {
          setNotice('');
          setSession(s);
          if (!location.hash) location.hash = '#/domains';
        }}
        notice={notice}
      />
    );
  const parts = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const page = parts[0] || 'domains';
  const logout = () => {
    saveSession(null);
    setSession(null);
    location.hash = '';
  };
  let body;
  if (page === 'domains' && parts[1]) body = <DomainPage domain={parts[1]} />;
  else if (page === 'audits' && parts[1]) body = <ReportPage scanuid={parts[1]} />;
  else if (page === 'audits') body = <AuditsPage />;
  else if (page === 'schedules') body = <SchedulesPage marked={parts[1]} />;
  else if (page === 'account') body = <AccountPage userid={session.userid} />;
  else body = <DomainsPage />;
  const link = (name: string, label: string) => (
    <a href={`#/${name}`} aria-current={page === name ? 'page' : undefined}>
      {label}
    </a>
  );
  return (
    <>
      <header class="top">
        <span class="brand">Vigil</span>
        <nav aria-label="Main">
          {link('domains', 'Domains')}
          {link('audits', 'Audits')}
          {link('schedules', 'Schedules')}
          {link('account', 'Account')}
        </nav>
        <span class="who">{session.userid}</span>
        <button type="button" class="quiet" onClick={logout}>
          Log out
        </button>
      </header>
      <main>{body}</main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
