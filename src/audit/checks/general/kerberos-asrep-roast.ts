import { etypeName } from '../../proto/krb5.ts';
import { defineCheck } from '../kit.ts';
import { kdcSurvey } from './lib/kdc-survey.ts';

/**
 * Kerberos principals that need no pre-authentication ("AS-REP roasting";
 * nmap's krb5-enum-users, Greenbone's and impacket's GetNPUsers look for
 * them): the KDC answers anyone's AS-REQ for such a name with an AS-REP
 * whose enc-part is sealed with the principal's own long-term key, derived
 * from its password (RFC 4120 §3.1.3), which can then be guessed offline at
 * leisure. Proof is the AS-REP itself: its cname is the name asked, its
 * enc-part carries the etype; the cipher is never cracked nor shown. Every
 * KDC (MIT, Heimdal, Active Directory) speaks this alike; names and realm
 * come from lib/kdc-survey.ts.
 */
export default defineCheck({
  id: 'vigil.kerberos.asrep-roast',
  shortid: 'KRB5-ASREP-ROAST',
  title: 'Kerberos principals need no pre-authentication (AS-REP roasting)',
  family: 'General',
  // One AS-REQ per name, what kinit sends first; nothing is logged in and no failure is counted toward a lockout
  // (KDCs count failed pre-authentication, and none is sent): safe.
  categories: ['safe', 'auth', 'vuln', 'default'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    "The KDC hands an AS-REP to anyone who names a principal without pre-authentication: the reply's encrypted part is sealed with a key derived from that account's password, which can be cracked offline without any further contact with the KDC or lockout.",
  solution:
    'Require pre-authentication for every principal (MIT: kadmin modprinc +requires_preauth NAME, and default_principal_flags = +preauth in kdc.conf; Heimdal: kadmin modify --attributes=+requires-pre-auth; Active Directory: clear "Do not require Kerberos preauthentication"), and give such accounts long random passwords.',
  references: [
    'https://www.rfc-editor.org/rfc/rfc4120#section-3.1.3',
    'https://attack.mitre.org/techniques/T1558/004/',
  ],
  ports: { services: ['kerberos-sec', 'kerberos'], ports: [88], fallback: { udp: [88] } },
  run: async ({ net, port, protocol, host }) => {
    const s = await kdcSurvey(net, port, protocol, host);
    if (!s?.roastable.length) return null;
    const replies = s.roastable.map(
      (r) => `"${r.name}" -> AS-REP for ${r.cname}@${r.crealm}, enc-part ${etypeName(r.etype)}, ${r.cipherBytes} bytes`,
    );
    return `AS-REQ without pre-authentication (no PA-ENC-TIMESTAMP) over ${s.transport}, realm ${s.realm} (${s.realmFrom}): ${replies.join('; ')}. Each enc-part is sealed with that principal's password-derived key (not cracked, not kept).`;
  },
});
