/**
 * Debian mosquitto, an MQTT broker. Weak: allow_anonymous true (anyone may
 * subscribe to # and publish). Twin: a password file and anonymous off
 * (CONNACK 5, not authorized, to a CONNECT without credentials).
 */
import { join } from 'node:path';
import { addr, script, type Daemon } from './kit.ts';

const K = 22;
const A = (n: number) => addr(K, n);
const PORT = 1883;

export const MOSQUITTO: Daemon = {
  kind: 'mosquitto',
  binaries: ['mosquitto', 'mosquitto_passwd'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [
    {
      id: 'mqtt-anonymous',
      family: 'auth',
      label: 'MQTT broker accepting anonymous clients (allow_anonymous true)',
      daemon: 'mosquitto',
      address: A(1),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.mqtt\.anonymous$/ },
      nmap: script('mqtt-subscribe', /Topics and their most recent payloads|\$SYS/),
    },
  ],
  twins: [{ address: A(100), note: 'password_file, allow_anonymous false' }],
  async start(ctx) {
    for (const [address, anonymous] of [
      [A(1), true],
      [A(100), false],
    ] as const) {
      const dir = ctx.dir(address);
      const passwords = join(dir, 'passwd');
      if (!anonymous) ctx.run('mosquitto_passwd', ['-b', '-c', passwords, 'sensor', 'bench-M9q-not-a-secret']);
      const conf = ctx.write(
        join(dir, 'mosquitto.conf'),
        [
          `listener ${PORT} ${address}`,
          `allow_anonymous ${anonymous}`,
          ...(anonymous ? [] : [`password_file ${passwords}`]),
          'persistence false',
          ...(process.getuid?.() === 0 ? ['user root'] : []),
        ].join('\n'),
      );
      const child = ctx.spawn(`mosquitto-${address}`, 'mosquitto', ['-c', conf]);
      await ctx.waitTcp(address, PORT, child);
    }
  },
};
