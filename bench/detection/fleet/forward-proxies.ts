/**
 * Open proxies of other makes than tinyproxy (issue 27: "open proxies of
 * every make"), proven by relay like every open proxy: the scanner's own
 * listener's secret must come back through them.
 *
 * Debian Squid (5.7). Weak: `http_access allow all` (anyone relays, GET in
 * absolute form and CONNECT to any port, and reads the cache manager); and a Squid that tunnels CONNECT
 * to any port but refuses GET (only the CONNECT path proves it). Twin:
 * Debian's stock rules with localnet narrowed to 10.0.0.0/8, a network the
 * scanner (127.0.0.1) is not in, and no allow for localhost (which the
 * scanner is, on loopback): every request denied.
 *
 * Debian Privoxy (3.0.34). Weak: no permit-access line (anyone). Twin:
 * permit-access for 192.0.2.0/24 only.
 *
 * Debian Apache httpd (2.4) as a forward proxy: ProxyRequests On, CONNECT
 * to any port, Require all granted (for loopback destinations: the rest is
 * denied before a name is resolved). Twin: Require ip 192.0.2.0/24.
 */
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { SQUID_DEBIAN_RULES, apacheProxyConf, privoxyConf, squidConf } from '../../../test/helpers/proxy-makes.ts';
import { addr, script, type Daemon } from './kit.ts';

const K = 37;
const A = (n: number) => addr(K, n);
const SQUID_PORT = 3128;
const PRIVOXY_PORT = 8118;
const APACHE_PORT = 8080;

export const SQUID: Daemon = {
  kind: 'squid',
  binaries: ['squid'],
  ports: { tcp: [SQUID_PORT], udp: [] },
  weaknesses: [
    {
      id: 'open-proxy-squid',
      family: 'web',
      label: 'Squid open to anyone (http_access allow all)',
      daemon: 'squid',
      address: A(1),
      port: SQUID_PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.http\.open-proxy$/ },
      nmap: script('http-open-proxy', /open proxy/i),
    },
    {
      id: 'squid-cachemgr',
      family: 'web',
      label: "Squid's cache manager open to anyone (/squid-internal-mgr/, http_access allow all)",
      daemon: 'squid',
      address: A(1),
      port: SQUID_PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.http\.status-page$/ },
      nmap: () => null,
    },
    {
      id: 'open-proxy-squid-connect',
      family: 'web',
      label: 'Squid tunnelling CONNECT to any port for anyone (GET refused)',
      daemon: 'squid',
      address: A(2),
      port: SQUID_PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.http\.open-proxy$/ },
      nmap: script('http-open-proxy', /open proxy/i),
    },
  ],
  twins: [{ address: A(100), note: 'stock http_access rules, localnet 10.0.0.0/8 only: the scanner is denied' }],
  async start(ctx) {
    for (const [address, rules] of [
      [A(1), ['http_access allow all']],
      [A(2), ['http_access allow CONNECT', 'http_access deny all']],
      [A(100), SQUID_DEBIAN_RULES],
    ] as const) {
      const dir = ctx.dir(address);
      chmodSync(dir, 0o777); // logs written by cache_effective_user proxy
      const conf = ctx.write(join(dir, 'squid.conf'), squidConf(address, SQUID_PORT, dir, rules));
      const child = ctx.spawn(`squid-${address}`, 'squid', ['-N', '-f', conf]);
      await ctx.waitTcp(address, SQUID_PORT, child, 30_000);
    }
  },
};

export const PRIVOXY: Daemon = {
  kind: 'privoxy',
  binaries: ['privoxy'],
  ports: { tcp: [PRIVOXY_PORT], udp: [] },
  weaknesses: [
    {
      id: 'open-proxy-privoxy',
      family: 'web',
      label: 'Privoxy open to anyone (no permit-access)',
      daemon: 'privoxy',
      address: A(3),
      port: PRIVOXY_PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.http\.open-proxy$/ },
      nmap: script('http-open-proxy', /open proxy/i),
    },
  ],
  twins: [{ address: A(101), note: 'permit-access 192.0.2.0/24 only: the scanner is refused' }],
  async start(ctx) {
    for (const [address, permit] of [
      [A(3), []],
      [A(101), ['192.0.2.0/24']],
    ] as const) {
      const dir = ctx.dir(address);
      const conf = ctx.write(join(dir, 'config'), privoxyConf(address, PRIVOXY_PORT, dir, permit));
      const child = ctx.spawn(`privoxy-${address}`, 'privoxy', ['--no-daemon', conf]);
      await ctx.waitTcp(address, PRIVOXY_PORT, child);
    }
  },
};

export const APACHE_PROXY: Daemon = {
  kind: 'apache-proxy',
  binaries: ['apache2'],
  ports: { tcp: [APACHE_PORT], udp: [] },
  weaknesses: [
    {
      id: 'open-proxy-apache',
      family: 'web',
      label: 'Apache httpd forward proxy open to anyone (ProxyRequests On, Require all granted)',
      daemon: 'apache2',
      address: A(4),
      port: APACHE_PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.http\.open-proxy$/ },
      nmap: script('http-open-proxy', /open proxy/i),
    },
  ],
  twins: [{ address: A(102), note: 'ProxyRequests On, Require ip 192.0.2.0/24: the scanner is refused' }],
  async start(ctx) {
    for (const [address, require] of [
      [A(4), 'all granted'],
      [A(102), 'ip 192.0.2.0/24'],
    ] as const) {
      const dir = ctx.dir(address);
      const conf = ctx.write(join(dir, 'httpd.conf'), apacheProxyConf(address, APACHE_PORT, dir, require));
      const child = ctx.spawn(`apache-proxy-${address}`, 'apache2', ['-f', conf, '-DFOREGROUND']);
      await ctx.waitTcp(address, APACHE_PORT, child);
    }
  },
};
