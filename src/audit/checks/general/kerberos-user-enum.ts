import { errorName } from '../../proto/krb5.ts';
import { defineCheck } from '../kit.ts';
import { kdcSurvey } from './lib/kdc-survey.ts';

/**
 * A KDC tells existing principals from absent ones to anyone: an AS-REQ
 * without pre-authentication is answered KDC_ERR_PREAUTH_REQUIRED (25) for
 * a principal that exists and KDC_ERR_C_PRINCIPAL_UNKNOWN (6) for one that
 * does not (RFC 4120 §3.1.3, §7.5.9; nmap's krb5-enum-users). Reported as
 * information (LOG), not as a hole: MIT and Heimdal have no setting that
 * hides it, so a hardened KDC still answers so, and what it gives away is
 * account names to guess passwords for. Shown only when a random name was
 * answered C_PRINCIPAL_UNKNOWN in the same realm (lib/kdc-survey.ts).
 */
export default defineCheck({
  id: 'vigil.kerberos.user-enum',
  shortid: 'KRB5-USER-ENUM',
  title: 'Kerberos KDC reveals which principals exist',
  family: 'General',
  categories: ['safe', 'discovery', 'auth'],
  risk: 'other',
  type: 'LOG',
  qod: 95,
  description:
    'The KDC answers an AS-REQ for an existing principal differently from one for an absent name, so anyone can learn account names (administrator, service accounts) to aim password guessing at. Reported as information: the protocol answers so on every KDC.',
  solution:
    'Let only the clients of the realm reach the KDC (firewall UDP/TCP 88), give accounts strong passwords with a lockout policy (MIT: a password policy with maxfailure), and avoid predictable service account names.',
  references: ['https://www.rfc-editor.org/rfc/rfc4120#section-7.5.9'],
  ports: { services: ['kerberos-sec', 'kerberos'], ports: [88], fallback: { udp: [88] } },
  run: async ({ net, port, protocol, host }) => {
    const s = await kdcSurvey(net, port, protocol, host);
    if (!s) return null;
    const found = [
      ...s.existing.map((e) => `${e.name} (${errorName(e.code)})`),
      ...s.roastable.map((r) => `${r.name} (an AS-REP)`),
    ];
    if (!found.length) return null;
    return `Of ${s.asked} common names asked in realm ${s.realm} (${s.realmFrom}) with an AS-REQ over ${s.transport}, ${found.length} exist: ${found.join(', ')}; a random name was answered ${errorName(6)}.`;
  },
});
