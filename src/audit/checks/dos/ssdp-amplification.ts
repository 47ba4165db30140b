import { amplified } from './lib/amplify.ts';
import { defineCheck } from '../kit.ts';

// UPnP Device Architecture 2.0, 1.3.2: a unicast M-SEARCH for every device and service.
const REQUEST = Buffer.from(
  'M-SEARCH * HTTP/1.1\r\nHOST: 239.255.255.250:1900\r\nMAN: "ssdp:discover"\r\nMX: 1\r\nST: ssdp:all\r\n\r\n',
);

const answers = (r: Buffer) => /^HTTP\/1\.[01] 200/.test(r.toString('latin1', 0, 16));

// A device sends one reply per device and service it offers, and only the first is measured:
// any unicast answer from outside the LAN is the exposure (TA14-017A: factor 30 over all replies).
const MIN_FACTOR = 2;

export default defineCheck({
  id: 'vigil.dos.ssdp-amplification',
  shortid: 'DOS-SSDP',
  title: 'SSDP (UPnP discovery) answers unicast M-SEARCH (amplification)',
  family: 'Denial of Service',
  categories: ['dos'],
  risk: 'medium',
  type: 'HOLE',
  description:
    'The device answers SSDP M-SEARCH requests sent to it directly from outside its network: one small request gets one reply per device and service it offers, a favourite amplifier of botnets.',
  solution:
    'Block UDP port 1900 at the network edge or turn UPnP/SSDP off on the public interface: SSDP belongs to the local network.',
  ports: { services: ['ssdp', 'upnp'], udp: [1900], via: 'udp' },
  run: (t) => amplified(t, REQUEST, answers, MIN_FACTOR),
});
