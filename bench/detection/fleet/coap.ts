/**
 * CoAP: Debian libcoap's coap-server-openssl (libcoap3-bin). A(1): plain CoAP on
 * UDP 5683, answering /.well-known/core to anyone (resource discovery and
 * a reply larger than the request). The twin A(100): UDP 5683 speaks DTLS
 * only: coap-server -k (a pre-shared key) listens for DTLS on its port + 1,
 * so -p 5682 puts coaps on 5683, and its plain listener on 5682 is outside
 * what the bench scans (libcoap's server has no switch that turns plain
 * CoAP off).
 */
import { randomBytes } from 'node:crypto';
import { wellKnownCoreRequest } from '../../../src/audit/proto/coap.ts';
import { addr, none, script, type Daemon } from './kit.ts';

const K = 67;
const A = (n: number) => addr(K, n);
const PORT = 5683;

export const COAP: Daemon = {
  kind: 'coap',
  binaries: ['coap-server-openssl'],
  ports: { tcp: [], udp: [PORT] },
  weaknesses: [
    {
      id: 'coap-resource-discovery',
      family: 'udp',
      label: 'CoAP lists its resources to anyone (GET /.well-known/core, no DTLS)',
      daemon: 'coap-server',
      address: A(1),
      port: PORT,
      proto: 'udp',
      vigil: { id: /^vigil\.coap\.resource-discovery$/ },
      nmap: script('coap-resources', /\S/),
    },
    {
      id: 'coap-amplification',
      family: 'dos',
      label: 'CoAP answers a small request with a larger reply (amplification)',
      daemon: 'coap-server',
      address: A(1),
      port: PORT,
      proto: 'udp',
      vigil: { id: /^vigil\.dos\.coap-amplification$/ },
      nmap: none,
    },
  ],
  twins: [{ address: A(100), note: 'coap-server: DTLS (PSK) only on UDP 5683' }],
  async start(ctx) {
    const open = ctx.spawn('coap-server-open', 'coap-server-openssl', ['-A', A(1), '-p', String(PORT)]);
    await ctx.waitUdp(A(1), PORT, wellKnownCoreRequest(), open);
    const key = randomBytes(12).toString('hex');
    const dtls = ctx.spawn('coap-server-dtls', 'coap-server-openssl', [
      '-A',
      A(100),
      '-p',
      String(PORT - 1),
      '-k',
      key,
    ]);
    await ctx.waitUdp(A(100), PORT - 1, wellKnownCoreRequest(), dtls);
  },
};
