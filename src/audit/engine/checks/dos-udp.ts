/**
 * UDP amplification: a service that answers a small datagram with a much
 * larger one can be aimed at a third party with a spoofed source address.
 * Each check sends ONE request to the service's well-known port and
 * measures reply bytes / request bytes (only the first reply datagram
 * counts, so the figure is a lower bound). Factors US-CERT TA14-017A
 * measured in the wild: memcached 10,000–51,000, NTP monlist 556, mode 6
 * ~25, SSDP 30, DNS ANY 28–54. A factor of 10 or more is reported.
 */
import type { Check, Finding, HostFacts, Net } from '../types.ts';

export const AMPLIFICATION_MIN = 10;

interface Amplifier {
  id: string;
  shortid: string;
  title: string;
  port: number;
  /** Detected service names (TCP side) whose ports are asked too. */
  names: readonly string[];
  request: Buffer;
  /** The reply is the service's own answer, not an error or an echo. */
  answers(reply: Buffer): boolean;
  description: string;
  solution: string;
  /** Smallest factor reported (default AMPLIFICATION_MIN). */
  minFactor?: number;
  /** Only where the answer itself identifies the flaw (monlist exists only in reference ntpd before 4.2.7p26). */
  cves?: readonly string[];
}

const MEMCACHED: Amplifier = {
  id: 'vigil.dos.memcached-udp-amplification',
  shortid: 'DOS-MEMCACHED-UDP',
  title: 'memcached answers over UDP (amplification)',
  port: 11211,
  names: ['memcached'],
  // protocol.txt "UDP protocol": an 8-byte frame header (request id, sequence 0, 1 datagram, reserved) before
  // the text command.
  request: Buffer.concat([Buffer.from([0, 1, 0, 0, 0, 1, 0, 0]), Buffer.from('stats\r\n')]),
  answers: (r) => r.length > 8 && r.subarray(8).toString('latin1').startsWith('STAT '),
  description:
    'memcached answers "stats" over UDP with kilobytes for a 15-byte request, and "get" of a large value with up to a megabyte: the largest amplification factor known (the 1.7 Tbit/s attacks of 2018).',
  solution: 'Start memcached with -U 0 (UDP off; the default since 1.5.6) and listen on a private address only.',
};

const NTP_MODE6: Amplifier = {
  id: 'vigil.dos.ntp-mode6-amplification',
  shortid: 'DOS-NTP-MODE6',
  title: 'NTP answers mode 6 control queries (amplification)',
  port: 123,
  names: ['ntp'],
  // RFC 9327 (NTP control messages): LI 0, version 2, mode 6; opcode 2 READVAR, sequence 1, association 0:
  // what `ntpq -c rv` sends.
  request: Buffer.from([0x16, 0x02, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0]),
  answers: (r) => r.length > 12 && (r[0]! & 0x07) === 6 && (r[1]! & 0x80) !== 0 && (r[1]! & 0x40) === 0,
  description:
    'The NTP server answers mode 6 (ntpq) control queries from anyone: a 12-byte READVAR returns its system variables, tens of times larger, and can be sent with a spoofed source.',
  solution:
    'Restrict queries (ntpd/ntpsec: "restrict default kod nomodify noquery nopeer limited"; allow only the administrators\' addresses).',
};

const NTP_MONLIST: Amplifier = {
  id: 'vigil.dos.ntp-monlist',
  shortid: 'DOS-NTP-MONLIST',
  title: 'NTP answers mode 7 monlist (amplification, CVE-2013-5211)',
  port: 123,
  names: ['ntp'],
  // ntpdc -c monlist: mode 7 (private), implementation 3 (XNTPD), request 42 (MON_GETLIST_1), padded as ntpdc sends it.
  request: Buffer.concat([Buffer.from([0x17, 0x00, 0x03, 0x2a]), Buffer.alloc(44)]),
  answers: (r) => r.length > 8 && (r[0]! & 0x07) === 7 && (r[0]! & 0x80) !== 0 && r[3] === 0x2a,
  cves: ['CVE-2013-5211'],
  description:
    'The NTP server answers mode 7 MON_GETLIST (monlist) with up to 600 addresses of recent clients, a factor of several hundred (CVE-2013-5211; reference ntpd before 4.2.7p26).',
  solution:
    'Upgrade ntpd (4.2.7p26 and later, and ntpsec, have no monlist) or add "disable monitor" and "restrict default noquery" to ntp.conf.',
};

const SSDP: Amplifier = {
  id: 'vigil.dos.ssdp-amplification',
  shortid: 'DOS-SSDP',
  title: 'SSDP (UPnP discovery) answers unicast M-SEARCH (amplification)',
  port: 1900,
  names: ['ssdp', 'upnp'],
  // UPnP Device Architecture 2.0, 1.3.2: a unicast M-SEARCH for every device and service.
  request: Buffer.from(
    'M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: "ssdp:discover"\r\nMX: 1\r\nST: ssdp:all\r\n\r\n',
  ),
  answers: (r) => /^HTTP\/1\.[01] 200/.test(r.toString('latin1', 0, 16)),
  // A device sends one reply per device and service it offers, and only the first is measured:
  // any unicast answer from outside the LAN is the exposure (TA14-017A: factor 30 over all replies).
  minFactor: 2,
  description:
    'The device answers SSDP M-SEARCH requests sent to it directly from outside its network: one small request gets one reply per device and service it offers, a favourite amplifier of botnets.',
  solution:
    'Block UDP port 1900 at the network edge or turn UPnP/SSDP off on the public interface: SSDP belongs to the local network.',
};

export const AMPLIFIERS: readonly Amplifier[] = [MEMCACHED, NTP_MODE6, NTP_MONLIST, SSDP];

/** Reply/request size factor of one request, or null when nothing (or no real answer) came back. */
export async function amplification(
  net: Net,
  port: number,
  request: Buffer,
  answers: (r: Buffer) => boolean,
): Promise<{ reply: number; factor: number } | null> {
  const reply = await net.udpRequest(port, request, { timeoutMs: 1500 }).catch(() => null);
  if (!reply || !answers(reply)) return null;
  return { reply: reply.length, factor: reply.length / request.length };
}

function amplifierCheck(a: Amplifier): Check {
  return {
    id: a.id,
    shortid: a.shortid,
    title: a.title,
    category: 'Denial of Service',
    risk: 'medium',
    cves: a.cves ?? [],
    type: 'HOLE',
    description: a.description,
    solution: a.solution,
    intrusive: false,
    dos: true,
    active: true,
    async run(host: HostFacts, net: Net): Promise<Finding[]> {
      const ports = [...new Set([a.port, ...host.services.filter((s) => a.names.includes(s.name)).map((s) => s.port)])];
      const out: Finding[] = [];
      for (const port of ports) {
        const m = await amplification(net, port, a.request, a.answers);
        if (!m || m.factor < (a.minFactor ?? AMPLIFICATION_MIN)) continue;
        out.push({
          port,
          detail: `UDP ${port}: a ${a.request.length}-byte request was answered with ${m.reply} bytes in its first datagram alone (factor ${m.factor.toFixed(1)}).`,
        });
      }
      return out;
    },
  };
}

export const UDP_AMPLIFICATION_CHECKS: readonly Check[] = AMPLIFIERS.map(amplifierCheck);
