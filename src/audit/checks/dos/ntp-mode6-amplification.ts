import { amplified } from './lib/amplify.ts';
import { defineCheck } from '../kit.ts';

// RFC 9327 (NTP control messages): LI 0, version 2, mode 6; opcode 2 READVAR, sequence 1, association 0:
// what `ntpq -c rv` sends.
const REQUEST = Buffer.from([0x16, 0x02, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0]);

const answers = (r: Buffer) => r.length > 12 && (r[0]! & 0x07) === 6 && (r[1]! & 0x80) !== 0 && (r[1]! & 0x40) === 0;

export default defineCheck({
  id: 'vigil.dos.ntp-mode6-amplification',
  shortid: 'DOS-NTP-MODE6',
  title: 'NTP answers mode 6 control queries (amplification)',
  family: 'Denial of Service',
  categories: ['dos'],
  risk: 'medium',
  type: 'HOLE',
  description:
    'The NTP server answers mode 6 (ntpq) control queries from anyone: a 12-byte READVAR returns its system variables, tens of times larger, and can be sent with a spoofed source.',
  solution:
    'Restrict queries (ntpd/ntpsec: "restrict default kod nomodify noquery nopeer limited"; allow only the administrators\' addresses).',
  ports: { services: ['ntp'], udp: [123], via: 'udp' },
  run: (t) => amplified(t, REQUEST, answers),
});
