import { httpRequest, isHttpService, usesTls } from '../../proto/http.ts';
import { defineCheck } from '../kit.ts';

/**
 * Overlapping whole-resource ranges: RFC 9110 14.2 lets a server coalesce or refuse them; serving each is the
 * amplifier ("Apache Killer", CVE-2011-3192). One request each, never more than one connection.
 */
export const RANGE_COPIES = 12;
export const RANGE_MIN_FACTOR = 4;

export default defineCheck({
  id: 'vigil.dos.http-range-amplification',
  shortid: 'DOS-HTTP-RANGE',
  title: 'Web server serves overlapping byte ranges (Range amplification)',
  family: 'Denial of Service',
  categories: ['dos'],
  risk: 'medium',
  type: 'HOLE',
  description:
    'Asked for the same resource many times over in one Range header, the server sends every copy: a few hundred request bytes make it send (and buffer) many times the resource, the mechanism of the "Apache Killer" (CVE-2011-3192 in Apache httpd before 2.2.20).',
  solution:
    'Limit ranges per request (Apache: MaxRanges and MaxRangeOverlaps; nginx: max_ranges), as RFC 9110 lets a server coalesce or ignore them, or upgrade the server.',
  ports: { where: isHttpService, max: 4 },
  async run({ net, port, service }) {
    const tls = !!service && usesTls(service);
    const whole = await httpRequest(net, port, tls, { maxBytes: 65536 });
    if (!whole || whole.status !== 200 || whole.raw.length < 64 || whole.raw.length >= 65536) return null;
    const ranges = Array.from({ length: RANGE_COPIES }, () => '0-').join(',');
    const multi = await httpRequest(net, port, tls, {
      headers: { Range: `bytes=${ranges}` },
      maxBytes: whole.raw.length * (RANGE_COPIES + 2) + 16384,
    });
    if (!multi || multi.status !== 206) return null;
    const factor = multi.raw.length / whole.raw.length;
    if (factor < RANGE_MIN_FACTOR) return null;
    return `GET / is ${whole.raw.length} bytes; with Range: bytes=${ranges} it came back 206 with ${multi.raw.length} bytes (factor ${factor.toFixed(1)}).`;
  },
});
