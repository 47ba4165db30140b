// Account: what the scripts tell about it. The spec has no entitlement
// script; the DNS figures come from the domain list (section 2.4).
import { useEffect, useState } from 'preact/hooks';
import { ApiCallError, call } from './api.ts';
import { words } from './words.ts';

export function AccountPage({ userid }: { userid: string }) {
  const [dns, setDns] = useState<any>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    call('dnsGetDomainList.php').then(setDns, (e) => setError(e instanceof ApiCallError ? words(e.code) : String(e)));
  }, []);
  return (
    <section>
      <h1>Account</h1>
      <dl class="figures">
        <div><dt>User ID</dt><dd>{userid}</dd></div>
        {dns && <div><dt>DNS subscription expires</dt><dd>{dns.expiryreadable}</dd></div>}
        {dns && <div><dt>Domains</dt><dd>{dns.domaincount}</dd></div>}
        {dns && <div><dt>Credits used</dt><dd>{dns.domainweight}</dd></div>}
      </dl>
      {error && <p class="error" role="alert">DNS: {error}</p>}
      <p>Audit types and allowed addresses are set by your operator; a run the subscription does not cover is refused with the reason.</p>
    </section>
  );
}
