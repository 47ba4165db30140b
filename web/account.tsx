// Account: what it may do (accountGetInfo.php, an extension script: the
// spec tells entitlements only by refusing a call).
import { useEffect, useState } from 'preact/hooks';
import { ApiCallError, call } from './api.ts';
import { words } from './words.ts';

const none = <em>none</em>;

export function AccountPage({ userid }: { userid: string }) {
  const [info, setInfo] = useState<any>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    call('accountGetInfo.php').then(setInfo, (e) => setError(e instanceof ApiCallError ? words(e.code) : String(e)));
  }, []);
  const left = info && info.dnsCredits != null ? info.dnsCredits - info.dnsCreditsUsed : null;
  return (
    <section>
      <h1>Account</h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <dl class="figures">
        <div>
          <dt>User ID</dt>
          <dd>{userid}</dd>
        </div>
        {info?.email && (
          <div>
            <dt>Audit mail goes to</dt>
            <dd>{info.email}</dd>
          </div>
        )}
      </dl>
      {info && (
        <>
          <h2>Audits</h2>
          <dl class="figures">
            <div>
              <dt>Audit types</dt>
              <dd>{info.auditTypes.length ? info.auditTypes.join(', ') : none}</dd>
            </div>
            <div>
              <dt>Addresses you may audit</dt>
              <dd class="mono">{info.allowedAddresses.length ? info.allowedAddresses.join(', ') : none}</dd>
            </div>
          </dl>
          <h2>DNS hosting</h2>
          {info.dnsSubscription || info.dnsCredits != null ? (
            <dl class="figures">
              <div>
                <dt>Subscription</dt>
                <dd>{info.dnsSubscription ? 'active' : 'expired'}</dd>
              </div>
              <div>
                <dt>Expires</dt>
                <dd>{info.dnsExpiryreadable ?? none}</dd>
              </div>
              <div>
                <dt>Domains</dt>
                <dd>{info.domaincount}</dd>
              </div>
              <div>
                <dt>Credits used</dt>
                <dd>
                  {info.dnsCreditsUsed} of {info.dnsCredits}
                </dd>
              </div>
              <div>
                <dt>Credits left</dt>
                <dd>{left}</dd>
              </div>
            </dl>
          ) : (
            <p>No DNS subscription: your operator can add one.</p>
          )}
        </>
      )}
      <p>Entitlements, addresses and credits are set by your operator.</p>
    </section>
  );
}
