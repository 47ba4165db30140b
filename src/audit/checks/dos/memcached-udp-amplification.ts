import { amplified } from './lib/amplify.ts';
import { defineCheck } from '../kit.ts';

// protocol.txt "UDP protocol": an 8-byte frame header (request id, sequence 0, 1 datagram, reserved) before
// the text command.
const REQUEST = Buffer.concat([Buffer.from([0, 1, 0, 0, 0, 1, 0, 0]), Buffer.from('stats\r\n')]);

const answers = (r: Buffer) => r.length > 8 && r.subarray(8).toString('latin1').startsWith('STAT ');

export default defineCheck({
  id: 'vigil.dos.memcached-udp-amplification',
  shortid: 'DOS-MEMCACHED-UDP',
  title: 'memcached answers over UDP (amplification)',
  family: 'Denial of Service',
  categories: ['dos'],
  risk: 'medium',
  type: 'HOLE',
  description:
    'memcached answers "stats" over UDP with kilobytes for a 15-byte request, and "get" of a large value with up to a megabyte: the largest amplification factor known (the 1.7 Tbit/s attacks of 2018).',
  solution: 'Start memcached with -U 0 (UDP off; the default since 1.5.6) and listen on a private address only.',
  ports: { services: ['memcached'], udp: [11211], via: 'udp' },
  run: (t) => amplified(t, REQUEST, answers),
});
