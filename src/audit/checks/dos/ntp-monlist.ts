import { amplified } from './lib/amplify.ts';
import { defineCheck } from '../kit.ts';

// ntpdc -c monlist: mode 7 (private), implementation 3 (XNTPD), request 42 (MON_GETLIST_1), padded as ntpdc sends it.
const REQUEST = Buffer.concat([Buffer.from([0x17, 0x00, 0x03, 0x2a]), Buffer.alloc(44)]);

const answers = (r: Buffer) => r.length > 8 && (r[0]! & 0x07) === 7 && (r[0]! & 0x80) !== 0 && r[3] === 0x2a;

export default defineCheck({
  id: 'vigil.dos.ntp-monlist',
  shortid: 'DOS-NTP-MONLIST',
  title: 'NTP answers mode 7 monlist (amplification, CVE-2013-5211)',
  family: 'Denial of Service',
  categories: ['dos'],
  risk: 'medium',
  type: 'HOLE',
  cves: ['CVE-2013-5211'],
  description:
    'The NTP server answers mode 7 MON_GETLIST (monlist) with up to 600 addresses of recent clients, a factor of several hundred (CVE-2013-5211; reference ntpd before 4.2.7p26).',
  solution:
    'Upgrade ntpd (4.2.7p26 and later, and ntpsec, have no monlist) or add "disable monitor" and "restrict default noquery" to ntp.conf.',
  ports: { services: ['ntp'], udp: [123], via: 'udp' },
  run: (t) => amplified(t, REQUEST, answers),
});
