/**
 * Node imitations, only where Debian has no daemon: MongoDB (not in
 * Debian since 2019, licence) and an SSDP responder (UPnP stacks live in
 * routers and TVs; Debian's minidlna answers only on multicast
 * interfaces). They run in the fleet's own process.
 */
import { createSocket } from 'node:dgram';
import { mongoTarget } from './mongo.ts';
import { listen, bindUdp } from '../net.ts';
import { addr, any, script, svc, type Daemon } from './kit.ts';

const K = 20;
const A = (n: number) => addr(K, n);

/**
 * Answers an M-SEARCH with one response per service type, as UPnP routers do (several replies per request:
 * the amplification).
 */
function ssdp() {
  const s = createSocket('udp4');
  s.on('message', (msg, rinfo) => {
    if (!/^M-SEARCH \* HTTP\/1\.1/i.test(msg.toString('latin1'))) return;
    for (const st of [
      'upnp:rootdevice',
      'urn:schemas-upnp-org:device:InternetGatewayDevice:1',
      'urn:schemas-upnp-org:service:WANIPConnection:1',
      'urn:schemas-upnp-org:service:Layer3Forwarding:1',
    ]) {
      s.send(
        `HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\nEXT:\r\nLOCATION: http://${A(1)}:49152/rootDesc.xml\r\nSERVER: Linux/5.10 UPnP/1.0 MiniUPnPd/2.3.0\r\nST: ${st}\r\nUSN: uuid:bench-0000-0001::${st}\r\n\r\n`,
        rinfo.port,
        rinfo.address,
      );
    }
  });
  return s;
}

export const IMITATIONS: Daemon = {
  kind: 'imitations',
  binaries: [],
  ports: { tcp: [27017], udp: [1900] },
  weaknesses: [
    {
      id: 'mongodb-noauth',
      family: 'auth',
      label: 'MongoDB without authentication (Node imitation)',
      daemon: 'node (mongodb wire)',
      address: A(1),
      port: 27017,
      proto: 'tcp',
      vigil: { text: /mongo/i },
      nmap: any(script('mongodb-databases', /customers/), script('mongodb-info', /databases/i)),
    },
    {
      id: 'ssdp-amp',
      family: 'dos',
      label: 'SSDP answers M-SEARCH from anyone (amplification; Node imitation)',
      daemon: 'node (ssdp)',
      address: A(2),
      port: 1900,
      proto: 'udp',
      vigil: { text: /ssdp|upnp|amplif/i },
      nmap: any(script('upnp-info', /Server|Location/i), svc(/upnp|ssdp/)),
    },
  ],
  twins: [{ address: A(100), note: 'MongoDB with authentication required; no SSDP' }],
  async start(ctx) {
    const running = [
      await listen('mongodb-weak', mongoTarget({ auth: false }), A(1), 27017),
      await listen('mongodb-twin', mongoTarget({ auth: true }), A(100), 27017),
      await bindUdp('ssdp', ssdp(), A(2), 1900),
    ];
    ctx.onStop(() => Promise.all(running.map((r) => r.close())).then(() => {}));
  },
};
