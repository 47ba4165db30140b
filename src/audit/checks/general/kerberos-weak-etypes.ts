import { etypeName } from '../../proto/krb5.ts';
import { defineCheck } from '../kit.ts';
import { kdcSurvey } from './lib/kdc-survey.ts';

/**
 * A KDC that still holds DES, 3DES or RC4 long-term keys for its principals
 * (RFC 6649, RFC 8429 deprecate them): an AS-REQ for a principal it holds,
 * offering only those etypes, is answered with them (PA-ETYPE-INFO2 in the
 * PREAUTH_REQUIRED error, or an AS-REP sealed with one) where a KDC with
 * AES keys only answers KDC_ERR_ETYPE_NOSUPP (14). RC4's key is the
 * account's unsalted NT hash. The principal comes from the survey's names
 * (lib/kdc-survey.ts), so a KDC whose names are all unknown is not judged.
 */
export default defineCheck({
  id: 'vigil.kerberos.weak-etypes',
  shortid: 'KRB5-WEAK-ETYPES',
  title: 'Kerberos KDC issues tickets with DES, 3DES or RC4 keys',
  family: 'General',
  categories: ['safe', 'vuln', 'default'],
  risk: 'medium',
  type: 'NOTE',
  qod: 99,
  description:
    'The KDC holds long-term keys of deprecated encryption types (single DES, triple DES or RC4-HMAC) and uses them when a client asks: replies and tickets sealed with them are far cheaper to crack or forge than AES ones, and an RC4 key is the unsalted NT hash of the password.',
  solution:
    'Remove the weak types from supported_enctypes and permitted_enctypes in kdc.conf and krb5.conf (MIT; Heimdal: [kdc] and [libdefaults] enctypes), then rekey the principals (kadmin cpw -randkey or a password change) so that only AES keys remain.',
  references: ['https://www.rfc-editor.org/rfc/rfc8429', 'https://www.rfc-editor.org/rfc/rfc6649'],
  ports: { services: ['kerberos-sec', 'kerberos'], ports: [88], fallback: { udp: [88] } },
  run: async ({ net, port, protocol, host }) => {
    const w = (await kdcSurvey(net, port, protocol, host))?.weakKeys;
    if (!w) return null;
    return `An AS-REQ for "${w.name}" offering only weak etypes was answered with ${w.answer}: ${w.etypes.map(etypeName).join(', ')}.`;
  },
});
