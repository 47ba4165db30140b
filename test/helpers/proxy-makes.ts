/**
 * Configuration texts of forward proxies of other makes than tinyproxy
 * (Squid, Privoxy, Apache httpd's mod_proxy), shared by the open-proxy tests and the detection bench
 * (bench/detection/fleet/forward-proxies.ts) so that both plant the same thing.
 * Nothing here reaches past loopback: Squid's resolver points at 127.0.0.1
 * (the canary is an address literal, so it is never asked), ICP, HTCP and
 * the pinger are off; Privoxy fetches loopback destinations only.
 */

/**
 * Squid. `rules` are the http_access lines: `['http_access allow all']` is
 * the open proxy; Debian's default ends in `http_access deny all` after
 * allowing `localnet` and `localhost`.
 */
export const squidConf = (address: string, port: number, dir: string, rules: readonly string[]) =>
  [
    `http_port ${address}:${port}`,
    ...rules,
    'cache deny all',
    `access_log stdio:${dir}/access.log`,
    `cache_log ${dir}/cache.log`,
    'cache_store_log none',
    `pid_filename ${dir}/squid.pid`,
    `coredump_dir ${dir}`,
    'netdb_filename none',
    'icp_port 0',
    'htcp_port 0',
    'pinger_enable off',
    'dns_nameservers 127.0.0.1',
    'visible_hostname vigil-test',
    ...(process.getuid?.() === 0 ? ['cache_effective_user proxy'] : []),
    'shutdown_lifetime 1 seconds',
    '',
  ].join('\n');

/**
 * Debian's stock rules (/etc/squid/squid.conf, 5.7) with localnet narrowed to a network the scanner is not
 * in, and without `http_access allow localhost` and `allow localhost manager`: on loopback the scanner IS
 * localhost (127.0.0.1), so those two would open the proxy and its cache manager to it.
 */
export const SQUID_DEBIAN_RULES = [
  'acl localnet src 10.0.0.0/8',
  'acl SSL_ports port 443',
  'acl Safe_ports port 80 21 443 70 210 1025-65535 280 488 591 777',
  'http_access deny !Safe_ports',
  'http_access deny CONNECT !SSL_ports',
  'http_access deny manager',
  'http_access allow localnet',
  'http_access deny all',
];

/**
 * Privoxy. No `permit-access` line: anyone may use it (the misconfiguration);
 * `permit` the networks of the twin. No action files, so CONNECT is not
 * limited to port 443 either.
 */
export const privoxyConf = (address: string, port: number, dir: string, permit: readonly string[]) =>
  [
    `confdir ${dir}`,
    `logdir ${dir}`,
    `listen-address ${address}:${port}`,
    'enable-remote-toggle 0',
    'enable-edit-actions 0',
    // Only loopback destinations are fetched directly; anything else (nmap's http-open-proxy asks for
    // www.google.com) goes to a parent that is not there, so Privoxy never resolves a name off loopback.
    'forward / 127.0.0.9:9',
    'forward 127./ .',
    ...permit.map((p) => `permit-access ${p}`),
    '',
  ].join('\n');

const APACHE_MODULES = '/usr/lib/apache2/modules';

/**
 * Apache httpd as a forward proxy (mod_proxy, mod_proxy_http, mod_proxy_connect): `ProxyRequests On`, CONNECT
 * to any port, and `Require <require>` for loopback destinations ("all granted" is the open proxy; "ip
 * 192.0.2.0/24" the twin). Run with `apache2 -f FILE -DFOREGROUND`.
 */
export function apacheProxyConf(address: string, port: number, dir: string, require: string): string {
  const mods = ['mpm_event', 'authz_core', 'authz_host', 'proxy', 'proxy_http', 'proxy_connect'];
  return [
    `ServerRoot ${dir}`,
    'ServerName proxy.test',
    `Listen ${address}:${port}`,
    `PidFile ${dir}/httpd.pid`,
    `Mutex file:${dir}`,
    `ErrorLog ${dir}/error.log`,
    ...mods.map((m) => `LoadModule ${m}_module ${APACHE_MODULES}/mod_${m}.so`),
    ...(process.getuid?.() === 0 ? ['User www-data', 'Group www-data'] : []),
    `DocumentRoot ${dir}`,
    // A proxy and nothing else: no site of its own (GET / is 404), no TRACE.
    'ServerTokens Prod',
    'TraceEnable Off',
    'ProxyRequests On',
    'AllowCONNECT 1-65535',
    // Destinations off loopback are denied before any name is resolved (authz runs before the proxy
    // handler: nmap's http-open-proxy asks for www.google.com), so nothing leaves loopback.
    '<Proxy "*">',
    '  Require all denied',
    '</Proxy>',
    '<ProxyMatch "^(https?://)?127\\.">',
    `  Require ${require}`,
    '</ProxyMatch>',
    '',
  ].join('\n');
}
