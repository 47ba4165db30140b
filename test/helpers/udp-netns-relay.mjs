// The inner half of the UDP relay of test/helpers/charon.ts, run inside a network namespace by
// `ip netns exec`: JSON lines on stdin ({k, a, p, d}: a client key, the inner address and port, the
// datagram in base64) are sent from one socket per client key; each reply goes back on stdout as
// {k, d}. Plain JavaScript, so that node starts it without tsx.
import { createSocket } from 'node:dgram';
import { createInterface } from 'node:readline';

const sockets = new Map();
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  let s = sockets.get(m.k);
  if (!s) {
    s = createSocket('udp4');
    s.on('message', (d) => process.stdout.write(`${JSON.stringify({ k: m.k, d: d.toString('base64') })}\n`));
    s.on('error', () => {});
    s.bind(0, '127.0.0.1');
    sockets.set(m.k, s);
  }
  s.send(Buffer.from(m.d, 'base64'), m.p, m.a);
});
process.stdin.on('end', () => process.exit(0));
process.stdout.write('ready\n');
