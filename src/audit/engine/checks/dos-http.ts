/**
 * HTTP denial-of-service susceptibility, measured with one request each:
 * overlapping byte ranges (the "Apache Killer", CVE-2011-3192) and slow
 * request headers (slowloris). Neither holds more than one connection.
 */
import type { Check, Finding, HostFacts, Net, Service } from '../types.ts';
import { httpRequest, isHttpService, usesTls } from './http-client.ts';

const httpPorts = (host: HostFacts, max: number): Service[] => host.services.filter(isHttpService).slice(0, max);

/**
 * Overlapping whole-resource ranges: RFC 9110 14.2 lets a server coalesce or refuse them; serving each is the
 * amplifier.
 */
export const RANGE_COPIES = 12;
export const RANGE_MIN_FACTOR = 4;

export const httpRangeAmplification: Check = {
  id: 'vigil.dos.http-range-amplification',
  shortid: 'DOS-HTTP-RANGE',
  title: 'Web server serves overlapping byte ranges (Range amplification)',
  category: 'Denial of Service',
  risk: 'medium',
  cves: [],
  type: 'HOLE',
  description:
    'Asked for the same resource many times over in one Range header, the server sends every copy: a few hundred request bytes make it send (and buffer) many times the resource, the mechanism of the "Apache Killer" (CVE-2011-3192 in Apache httpd before 2.2.20).',
  solution:
    'Limit ranges per request (Apache: MaxRanges and MaxRangeOverlaps; nginx: max_ranges), as RFC 9110 lets a server coalesce or ignore them, or upgrade the server.',
  intrusive: false,
  dos: true,
  active: true,
  async run(host: HostFacts, net: Net): Promise<Finding[]> {
    const out: Finding[] = [];
    for (const s of httpPorts(host, 4)) {
      const tls = usesTls(s);
      const whole = await httpRequest(net, s.port, tls, { maxBytes: 65536 });
      if (!whole || whole.status !== 200 || whole.raw.length < 64 || whole.raw.length >= 65536) continue;
      const ranges = Array.from({ length: RANGE_COPIES }, () => '0-').join(',');
      const multi = await httpRequest(net, s.port, tls, {
        headers: { Range: `bytes=${ranges}` },
        maxBytes: whole.raw.length * (RANGE_COPIES + 2) + 16384,
      });
      if (!multi || multi.status !== 206) continue;
      const factor = multi.raw.length / whole.raw.length;
      if (factor < RANGE_MIN_FACTOR) continue;
      out.push({
        port: s.port,
        detail: `GET / is ${whole.raw.length} bytes; with Range: bytes=${ranges} it came back 206 with ${multi.raw.length} bytes (factor ${factor.toFixed(1)}).`,
      });
    }
    return out;
  },
};

/** How long an unfinished request may stay open before the server is called susceptible, and the trickle interval. */
export const SLOW_HOLD_MS = 6_000;
const SLOW_TRICKLE_MS = 2_000;

/** True when the server still holds a request whose headers never end after `holdMs`. */
export async function holdsSlowRequest(net: Net, port: number, tls: boolean, holdMs = SLOW_HOLD_MS): Promise<boolean> {
  let socket;
  try {
    socket = tls ? await net.connectTls(port, { timeoutMs: 5000 }) : await net.connect(port, { timeoutMs: 5000 });
  } catch {
    return false;
  }
  return new Promise<boolean>((resolve) => {
    let n = 0;
    const done = (open: boolean) => {
      clearInterval(trickle);
      clearTimeout(timer);
      socket.destroy();
      resolve(open);
    };
    socket.on('data', () => done(false)); // an answer (400/408) ends the request
    socket.on('close', () => done(false));
    socket.on('error', () => done(false));
    socket.write(`GET / HTTP/1.1\r\nHost: ${net.address}\r\nUser-Agent: Vigil-Audit\r\n`);
    // One header line every few seconds, as slowloris does: below any sane minimum rate.
    const trickle = setInterval(() => socket.write(`X-Vigil-${n++}: 1\r\n`), SLOW_TRICKLE_MS);
    const timer = setTimeout(() => done(!socket.destroyed), holdMs);
  });
}

export const httpSlowRequest: Check = {
  id: 'vigil.dos.http-slow-request',
  shortid: 'DOS-HTTP-SLOW',
  title: 'Web server waits long for request headers (slowloris)',
  category: 'Denial of Service',
  risk: 'low',
  cves: [],
  type: 'NOTE',
  description:
    'The server kept a request whose headers arrive one line every few seconds open for the whole test: a client holding many such requests can tie up every worker (slowloris). ' +
    'Whether that exhausts the server depends on its connection model, which one connection cannot show, so this is reported at a quality of detection of 50 (as nmap\'s http-slowloris-check says "LIKELY VULNERABLE").',
  solution:
    'Bound the time for request headers (Apache: RequestReadTimeout header=5-20,MinRate=500; nginx: client_header_timeout 5s) and the connections per client.',
  intrusive: false,
  dos: true,
  active: true,
  qod: 50,
  async run(host: HostFacts, net: Net): Promise<Finding[]> {
    const services = httpPorts(host, 2);
    const held = await Promise.all(services.map((s) => holdsSlowRequest(net, s.port, usesTls(s))));
    return services
      .filter((_, i) => held[i])
      .map((s) => ({
        port: s.port,
        detail: `A request sending one header line every ${SLOW_TRICKLE_MS / 1000} s was still open after ${SLOW_HOLD_MS / 1000} s.`,
      }));
  },
};

export const HTTP_DOS_CHECKS: readonly Check[] = [httpRangeAmplification, httpSlowRequest];
