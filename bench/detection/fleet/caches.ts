/**
 * Debian redis-server and memcached. Redis: protected mode off and no
 * password (any client runs any command) vs requirepass. memcached: the
 * text protocol open on TCP plus UDP on 11211 (a 15-byte "stats" request
 * brings back kilobytes: the 2018 amplification attacks) vs SASL required
 * (-S turns the text protocol off) and UDP off (-U 0, the default since 1.5.6).
 */
import { addr, grep, script, type Daemon } from './kit.ts';

const RK = 11;
export const REDIS: Daemon = {
  kind: 'redis',
  binaries: ['redis-server'],
  ports: { tcp: [6379], udp: [] },
  weaknesses: [
    {
      id: 'redis-noauth',
      family: 'auth',
      label: 'Redis without a password, protected mode off',
      daemon: 'redis',
      address: addr(RK, 1),
      port: 6379,
      proto: 'tcp',
      vigil: { text: /redis/i },
      nmap: script('redis-info', /Version/),
    },
  ],
  twins: [{ address: addr(RK, 100), note: 'requirepass set, protected mode on' }],
  async start(ctx) {
    for (const [address, auth] of [
      [addr(RK, 1), false],
      [addr(RK, 100), true],
    ] as const) {
      const dir = ctx.dir(address);
      const args = [
        '--bind',
        address,
        '--port',
        '6379',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
        '--daemonize',
        'no',
        '--logfile',
        '',
      ];
      args.push(
        ...(auth ? ['--requirepass', 'bench-R4t-not-a-secret', '--protected-mode', 'yes'] : ['--protected-mode', 'no']),
      );
      const child = ctx.spawn(`redis-${address}`, 'redis-server', args);
      await ctx.waitTcp(address, 6379, child);
    }
  },
};

const MK = 12;
const STATS_UDP = Buffer.concat([Buffer.from([0, 1, 0, 0, 0, 1, 0, 0]), Buffer.from('stats\r\n')]);
export const MEMCACHED: Daemon = {
  kind: 'memcached',
  binaries: ['memcached'],
  ports: { tcp: [11211], udp: [11211] },
  weaknesses: [
    {
      id: 'memcached-open',
      family: 'auth',
      label: 'memcached text protocol open (no SASL)',
      daemon: 'memcached',
      address: addr(MK, 1),
      port: 11211,
      proto: 'tcp',
      vigil: { id: /^vigil\.(?!dos\.)[\w.-]*memcache/ },
      nmap: script('memcached-info', /Version|Process ID/i),
    },
    {
      id: 'memcached-udp-amp',
      family: 'dos',
      label: 'memcached UDP on (stats amplification)',
      daemon: 'memcached',
      address: addr(MK, 1),
      port: 11211,
      proto: 'udp',
      vigil: { text: /udp|amplif/i },
      nmap: grep(/memcache.*udp|udp.*memcache/i),
    },
  ],
  twins: [{ address: addr(MK, 100), note: 'SASL required (-S: no text protocol), UDP off (-U 0)' }],
  async start(ctx) {
    const weak = ctx.spawn('memcached-weak', 'memcached', [
      '-u',
      'memcache',
      '-l',
      addr(MK, 1),
      '-p',
      '11211',
      '-U',
      '11211',
      '-m',
      '16',
    ]);
    await ctx.waitTcp(addr(MK, 1), 11211, weak);
    await ctx.waitUdp(addr(MK, 1), 11211, STATS_UDP, weak);
    // memcached reads its SASL settings from $SASL_CONF_PATH/memcached.conf (memcached's docs/protocol-sasl);
    // a mechanism list and an empty user database: nobody can log in.
    const sasl = ctx.dir('sasl');
    ctx.write(`${sasl}/memcached.conf`, `mech_list: plain\nsasldb_path: ${sasl}/sasldb2\n`);
    const twin = ctx.spawn(
      'memcached-twin',
      'memcached',
      ['-u', 'memcache', '-l', addr(MK, 100), '-p', '11211', '-U', '0', '-S', '-m', '16'],
      { env: { ...process.env, SASL_CONF_PATH: sasl } },
    );
    await ctx.waitTcp(addr(MK, 100), 11211, twin);
  },
};
