/**
 * Debian php-fpm (8.2) with its pool on TCP, K = 91 (N = 3 and 104, beside
 * the download managers), in the foreground. Weak: `listen =
 * 127.14.91.3:9000` with no listen.allowed_clients (FastCGI takes scripts
 * and PHP settings from anyone). Twin: listen.allowed_clients = 127.0.0.2
 * (php-fpm drops the scanner, whose connections come from 127.0.0.1,
 * before reading).
 */
import { join } from 'node:path';
import { addr, none, which, type Daemon } from './kit.ts';

const K = 91;
const A = (n: number) => addr(K, n);
const PORT = 9000;

export const PHP_FPM_TCP: Daemon = {
  kind: 'php-fpm-tcp',
  binaries: ['php-fpm8.2'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [
    {
      id: 'fastcgi-open',
      family: 'auth',
      label: 'php-fpm pool on TCP without listen.allowed_clients',
      daemon: 'php-fpm',
      address: A(3),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.fastcgi\.open$/ },
      nmap: none,
    },
  ],
  twins: [{ address: A(104), note: 'listen.allowed_clients = 127.0.0.2' }],
  async start(ctx) {
    for (const [n, restricted] of [
      [3, false],
      [104, true],
    ] as const) {
      const root = ctx.dir(`php-fpm-${n}`);
      const conf = ctx.write(
        join(root, 'php-fpm.conf'),
        [
          '[global]',
          `pid = ${root}/php-fpm.pid`,
          `error_log = ${root}/php-fpm.log`,
          'daemonize = no',
          '[www]',
          'user = www-data',
          'group = www-data',
          `listen = ${A(n)}:${PORT}`,
          ...(restricted ? ['listen.allowed_clients = 127.0.0.2'] : []),
          'pm = static',
          'pm.max_children = 2',
          '',
        ].join('\n'),
      );
      const bin = which('php-fpm8.2')!;
      const child = ctx.spawn(`php-fpm-${A(n)}`, bin, ['-F', '-R', '-y', conf, '-c', '/etc/php/8.2/fpm/php.ini']);
      await ctx.waitTcp(A(n), PORT, child);
    }
  },
};
