/**
 * Configurations of the chat, VoIP, streaming and printing daemons that both
 * the tests (src/audit/checks/general/{xmpp,sip,cups,irc}.test.ts,
 * web/icecast.test.ts) and the detection bench (bench/detection/fleet/)
 * start, weak or hardened, so that the two plant the same thing: Prosody,
 * Kamailio, CUPS, Icecast and ngIRCd (Debian packages prosody, kamailio,
 * cups, icecast2, ngircd).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NS_ADDR, type NsPlan } from './legacy-daemons.ts';

// ---- Prosody (XMPP) ---------------------------------------------------------------------------------

/**
 * One Prosody VirtualHost per audited address (the stream names the address):
 * - `open`: encryption not required, PLAIN allowed before TLS, in-band registration open;
 * - `anonymous`: SASL ANONYMOUS (authentication = "anonymous");
 * - `hardened`: TLS required before anything else, no registration, internal_hashed logins.
 */
export interface ProsodyHost {
  domain: string;
  mode: 'open' | 'anonymous' | 'hardened';
  cert: string;
  key: string;
}

/** prosody.cfg.lua for `prosody --config FILE -F`, c2s only (no s2s, no HTTP), on `addresses`:`port`. */
export function prosodyConf(dir: string, addresses: readonly string[], port: number, hosts: readonly ProsodyHost[]) {
  const list = (xs: readonly (string | number)[]) =>
    `{ ${xs.map((x) => (typeof x === 'number' ? x : `"${x}"`)).join('; ')} }`;
  const host = (h: ProsodyHost) =>
    [
      `VirtualHost "${h.domain}"`,
      `  ssl = { certificate = "${h.cert}"; key = "${h.key}" }`,
      ...(h.mode === 'open'
        ? ['  c2s_require_encryption = false', '  allow_unencrypted_plain_auth = true', '  allow_registration = true']
        : h.mode === 'anonymous'
          ? ['  authentication = "anonymous"', '  c2s_require_encryption = false']
          : ['  c2s_require_encryption = true', '  allow_registration = false']),
    ].join('\n');
  return [
    'run_as_root = true',
    `pidfile = "${dir}/prosody.pid"`,
    `data_path = "${dir}/data"`,
    `certificates = "${dir}"`,
    'log = { { levels = { min = "warn" }, to = "console" } }',
    `interfaces = ${list(addresses)}`,
    `c2s_ports = ${list([port])}`,
    'c2s_direct_tls_ports = { }',
    's2s_ports = { }',
    'modules_enabled = { "roster"; "saslauth"; "tls"; "disco"; "ping"; "register" }',
    'modules_disabled = { "s2s"; "http"; "admin_shell"; "posix" }',
    'authentication = "internal_hashed"',
    'storage = "internal"',
    ...hosts.map(host),
    '',
  ].join('\n');
}

// ---- Kamailio (SIP) ---------------------------------------------------------------------------------

/**
 * A Kamailio proxy on `address`:`port` (UDP and TCP). `open`: the policy of Debian's kamailio.cfg without
 * WITH_AUTH (route[AUTH]: relay unless neither From nor the Request-URI is local, and never ask who the
 * user is), its registrar saving REGISTER without a challenge, and the Server header on; hardened: 403 to
 * any request for another domain, every REGISTER challenged, no Server header.
 */
export function kamailioConf(address: string, port: number, open: boolean) {
  return [
    '#!KAMAILIO',
    'debug=1',
    'log_stderror=yes',
    'children=1',
    'tcp_children=1',
    'auto_aliases=no',
    `listen=udp:${address}:${port}`,
    `listen=tcp:${address}:${port}`,
    ...(open ? [] : ['server_signature=no']),
    'loadmodule "tm.so"',
    'loadmodule "sl.so"',
    'loadmodule "rr.so"',
    'loadmodule "pv.so"',
    'loadmodule "maxfwd.so"',
    'loadmodule "textops.so"',
    'loadmodule "usrloc.so"',
    'loadmodule "registrar.so"',
    'loadmodule "auth.so"',
    'request_route {',
    '  if (!mf_process_maxfwd_header("10")) { sl_send_reply("483", "Too Many Hops"); exit; }',
    '  if (is_method("OPTIONS") && uri == myself && $rU == $null) { sl_send_reply("200", "Keepalive"); exit; }',
    '  if (uri != myself) {',
    open
      ? '    if (from_uri != myself) { sl_send_reply("403", "Not relaying"); exit; }'
      : '    sl_send_reply("403", "Not relaying"); exit;',
    '    record_route();',
    '    if (!t_relay()) { sl_reply_error(); }',
    '    exit;',
    '  }',
    // Registrar (in memory): Debian's route[REGISTRAR] saves without a challenge unless WITH_AUTH; the
    // twin challenges every REGISTER (auth_challenge: 401 with a nonce; no user would pass without a db).
    open
      ? '  if (is_method("REGISTER")) { save("location"); exit; }'
      : '  if (is_method("REGISTER")) { auth_challenge("$td", "1"); exit; }',
    '  sl_send_reply("404", "Not here");',
    '}',
    '',
  ].join('\n');
}

/**
 * Writes kamailio.cfg into `dir` (and its runtime directory) and returns kamailio's arguments: in the
 * foreground, logging to stderr, small shared and private memory (32 and 4 MB).
 */
export function kamailioArgs(dir: string, address: string, port: number, open: boolean): string[] {
  mkdirSync(join(dir, 'run'), { recursive: true });
  writeFileSync(join(dir, 'kamailio.cfg'), kamailioConf(address, port, open));
  return ['-f', join(dir, 'kamailio.cfg'), '-DD', '-E', '-m', '32', '-M', '4', '-Y', join(dir, 'run'), '-w', dir];
}

// ---- CUPS (IPP) -------------------------------------------------------------------------------------

/**
 * cupsd.conf. cupsd treats every 127/8 client as local: its Allow/Deny rules let it through whatever they
 * say, and it accepts only "localhost" as the Host of a loopback request (a DNS-rebinding guard, valid_host
 * in client.c). So cupsd runs in a network namespace of its own on NS_ADDR (cupsPlan), where the relay's
 * connections come from NS_ADDR, a client from the network as cupsd sees it. `open`: `Allow all` on /,
 * /admin and /admin/conf, no login (cupsctl --remote-admin --share-printers, the conf location opened
 * too); hardened: Debian's cupsd.conf locations (Order allow,deny and no Allow: local clients only, and a
 * login for /admin/conf). The Unix socket is for the web interface's CGI programs, which ask cupsd there.
 */
export function cupsdConf(listen: readonly string[], open: boolean) {
  const location = (path: string, auth = false) => [
    `<Location ${path}>`,
    ...(auth && !open ? ['  AuthType Default', '  Require user @SYSTEM'] : []),
    '  Order allow,deny',
    ...(open ? ['  Allow all'] : []),
    '</Location>',
  ];
  return [
    'LogLevel warn',
    ...listen.map((l) => `Listen ${l}`),
    'ServerAlias *',
    'Browsing Off',
    'WebInterface Yes',
    'DefaultAuthType Basic',
    ...location('/'),
    ...location('/admin'),
    ...location('/admin/conf', true),
    '<Policy default>',
    '  <Limit All>',
    '    Order deny,allow',
    '  </Limit>',
    '</Policy>',
    '',
  ].join('\n');
}

/** cupsd in its namespace (legacy-daemons.ts nsCommand), on NS_ADDR:631 and a Unix socket, offered as `tcp-631`. */
export function cupsPlan(dir: string, open: boolean): NsPlan {
  for (const d of ['spool', 'cache', 'state', 'tmp', 'ppd']) mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(join(dir, 'printers.conf'), cupsPrintersConf());
  writeFileSync(join(dir, 'cups-files.conf'), cupsFilesConf(dir));
  writeFileSync(join(dir, 'cupsd.conf'), cupsdConf([`${NS_ADDR}:631`, join(dir, 'cups.sock')], open));
  return {
    setup: [`cupsd -f -c ${join(dir, 'cupsd.conf')} -s ${join(dir, 'cups-files.conf')} &`],
    relays: { 'tcp-631': `TCP:${NS_ADDR}:631` },
    ready: `test -S ${join(dir, 'cups.sock')}`,
  };
}

/** cups-files.conf: everything under `dir`, logs to stderr. */
export const cupsFilesConf = (dir: string) =>
  [
    `ServerRoot ${dir}`,
    `RequestRoot ${dir}/spool`,
    `CacheDir ${dir}/cache`,
    `StateDir ${dir}/state`,
    `TempDir ${dir}/tmp`,
    'ErrorLog stderr',
    'AccessLog stderr',
    'PageLog stderr',
    'User lp',
    'Group lp',
    'SystemGroup lpadmin root',
    '',
  ].join('\n');

/** printers.conf: one shared raw queue; its device (the discard port) is reached only when a job prints. */
export const cupsPrintersConf = () =>
  [
    '<Printer lab-laser>',
    'PrinterId 1',
    'Info Lab laser printer',
    'Location Building 2, room 14',
    'MakeModel Local Raw Printer',
    'DeviceURI socket://127.0.0.1:9',
    'State Idle',
    'Accepting Yes',
    'Shared Yes',
    '</Printer>',
    '',
  ].join('\n');

// ---- Icecast ----------------------------------------------------------------------------------------

export const ICECAST_SHIPPED = '/etc/icecast2/icecast.xml';

/**
 * The icecast.xml Debian ships (admin and source passwords "hackme"), moved to `address`:`port` and to
 * `dir` for its logs and pid file, as nobody. The hardened twin: `passwords` replaces every "hackme", and
 * `tls` (a PEM file holding the certificate and its key) serves the port over HTTPS only, with HSTS (its
 * admin pages ask for Basic credentials, which plain HTTP would carry in clear).
 */
export function icecastConf(address: string, port: number, dir: string, passwords?: string, tls?: string) {
  let xml = readFileSync(ICECAST_SHIPPED, 'utf8').replace(/<!--[\s\S]*?-->/g, '');
  xml = xml
    .replace(/<listen-socket>[\s\S]*?<\/listen-socket>/g, '')
    .replace(
      '</limits>',
      `</limits>\n<listen-socket><port>${port}</port><bind-address>${address}</bind-address>${tls ? '<ssl>1</ssl>' : ''}</listen-socket>${tls ? '\n<http-headers><header name="Strict-Transport-Security" value="max-age=31536000" /></http-headers>' : ''}`,
    )
    .replace(/<hostname>[^<]*<\/hostname>/, `<hostname>${address}</hostname>`)
    .replace(/<logdir>[^<]*<\/logdir>/, `<logdir>${dir}</logdir>`)
    .replace(/<pidfile>[^<]*<\/pidfile>/, '')
    .replace('</paths>', tls ? `<ssl-certificate>${tls}</ssl-certificate></paths>` : '</paths>')
    .replace(/<security>[\s\S]*?<\/security>/, '')
    .replace(
      '</icecast>',
      '<security><chroot>0</chroot><changeowner><user>nobody</user><group>nogroup</group></changeowner></security>\n</icecast>',
    );
  return passwords ? xml.replace(/hackme/g, passwords) : xml;
}

// ---- ngIRCd (IRC) -----------------------------------------------------------------------------------

/**
 * ngircd.conf on `address`:`port`, no DNS or ident lookups, no PAM, with the operator block of ngIRCd's
 * sample configuration (TheOper); `operPassword` is its password: "ThePwd" as in the sample, or the
 * hardened twin's own.
 */
export const ngircdConf = (address: string, port: number, dir: string, operPassword: string) =>
  [
    '[Global]',
    '  Name = irc.vigil.test',
    '  Info = Vigil test IRC server',
    `  Listen = ${address}`,
    `  Ports = ${port}`,
    `  PidFile = ${dir}/ngircd.pid`,
    `  MotdPhrase = Vigil test server`,
    '[Options]',
    '  DNS = no',
    '  Ident = no',
    '  PAM = no',
    '[Operator]',
    '  Name = TheOper',
    `  Password = ${operPassword}`,
    '',
  ].join('\n');
