/**
 * Configuration texts of the proxy and status daemons that both the tests
 * (src/audit/checks/web/*.test.ts) and the detection bench
 * (bench/detection/fleet/) start, weak or hardened, so that the two plant
 * the same thing.
 */

/** tinyproxy: no Allow line lets anyone relay (the misconfiguration); `allow` is the client ACL of the twin. */
export const tinyproxyConf = (address: string, port: number, logDir: string, allow: readonly string[]) =>
  [
    `Port ${port}`,
    `Listen ${address}`,
    'Timeout 10',
    'MaxClients 20',
    `LogFile "${logDir}/log"`,
    ...(process.getuid?.() === 0 ? ['User nobody', 'Group nogroup'] : []),
    ...allow.map((a) => `Allow ${a}`),
  ].join('\n');

/** Dante's danted: no method (anyone, SOCKS4 and SOCKS5) or username/password required. */
export const dantedConf = (address: string, port: number, open: boolean) =>
  [
    'logoutput: stderr',
    `internal: ${address} port = ${port}`,
    'external: 127.0.0.1',
    `socksmethod: ${open ? 'none' : 'username'}`,
    'clientmethod: none',
    ...(process.getuid?.() === 0 ? ['user.privileged: root', 'user.unprivileged: nobody'] : []),
    'client pass { from: 0.0.0.0/0 to: 0.0.0.0/0 }',
    'socks pass { from: 0.0.0.0/0 to: 0.0.0.0/0 }',
  ].join('\n');

/** haproxy with its stats page at the default URI; `guard` the lines that close it (stats auth, an ACL). */
export const haproxyStatsConf = (address: string, port: number, guard: readonly string[]) =>
  [
    'global',
    '  maxconn 100',
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 5s',
    '  timeout server 5s',
    'frontend stats',
    `  bind ${address}:${port}`,
    '  stats enable',
    '  stats uri /haproxy?stats',
    ...guard.map((g) => `  ${g}`),
    '', // haproxy refuses a last line without its LF
  ].join('\n');
