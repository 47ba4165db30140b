/**
 * Open proxies. Debian tinyproxy, a forward proxy. Weak: no Allow line, so anyone may
 * relay through it (Vigil must prove it by relay: its own listener's
 * content back through the proxy, issue 27). Twin: the same proxy with
 * Allow limited to another network, which refuses the scanner.
 */
import { join } from 'node:path';
import { dantedConf, tinyproxyConf } from '../../../test/helpers/proxy-configs.ts';
import { addr, script, type Daemon } from './kit.ts';

const K = 21;
const A = (n: number) => addr(K, n);
const PORT = 8888;

export const TINYPROXY: Daemon = {
  kind: 'tinyproxy',
  binaries: ['tinyproxy'],
  ports: { tcp: [PORT], udp: [] },
  weaknesses: [
    {
      id: 'open-proxy-tinyproxy',
      family: 'web',
      label: 'Forward proxy open to anyone (tinyproxy without Allow)',
      daemon: 'tinyproxy',
      address: A(1),
      port: PORT,
      proto: 'tcp',
      vigil: { id: /^vigil\.http\.open-proxy$/ },
      nmap: script('http-open-proxy', /open proxy/i),
    },
  ],
  twins: [{ address: A(100), note: 'Allow 192.0.2.0/24 only: the scanner is refused' }],
  async start(ctx) {
    for (const [address, allow] of [
      [A(1), []],
      [A(100), ['192.0.2.0/24']],
    ] as const) {
      const dir = ctx.dir(address);
      const conf = ctx.write(join(dir, 'tinyproxy.conf'), tinyproxyConf(address, PORT, dir, allow));
      const child = ctx.spawn(`tinyproxy-${address}`, 'tinyproxy', ['-d', '-c', conf]);
      await ctx.waitTcp(address, PORT, child);
    }
  },
};

/**
 * Debian dante-server (danted), a SOCKS4/5 proxy. Weak: socksmethod none,
 * every client and destination passed. Twin: socksmethod username (SOCKS5
 * without credentials is refused, SOCKS4 too).
 */
const DK = 25;
const D = (n: number) => addr(DK, n);
export const DANTED: Daemon = {
  kind: 'danted',
  binaries: ['danted'],
  ports: { tcp: [1080], udp: [] },
  weaknesses: [
    {
      id: 'open-proxy-socks',
      family: 'web',
      label: 'SOCKS proxy open to anyone (danted, socksmethod none)',
      daemon: 'danted',
      address: D(1),
      port: 1080,
      proto: 'tcp',
      vigil: { id: /^vigil\.socks\.open-proxy$/ },
      nmap: script('socks-open-proxy', /open proxy/i),
    },
  ],
  twins: [{ address: D(100), note: 'socksmethod username: no relay without credentials' }],
  async start(ctx) {
    for (const [address, open] of [
      [D(1), true],
      [D(100), false],
    ] as const) {
      const conf = ctx.write(join(ctx.dir(address), 'danted.conf'), dantedConf(address, 1080, open));
      const child = ctx.spawn(`danted-${address}`, 'danted', ['-f', conf]);
      await ctx.waitTcp(address, 1080, child);
    }
  },
};
