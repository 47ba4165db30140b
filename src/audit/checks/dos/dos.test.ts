import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect, createServer as createTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Fence } from '../../engine/fence.ts';
import type { Check, HostFacts, Service } from '../../engine/types.ts';
import { checkById } from '../catalogue.ts';
import { dnsAsk } from '../../proto/dns.ts';

const dnsAnyAmplification = checkById('vigil.dos.dns-any-amplification');
const httpRangeAmplification = checkById('vigil.dos.http-range-amplification');
const httpSlowRequest = checkById('vigil.dos.http-slow-request');
const tlsClientRenegotiation = checkById('vigil.dos.tls-client-renegotiation');

/**
 * SIGTERM, then wait: Apache's and nginx's masters stop their workers on it,
 * where a SIGKILL to the master leaves the workers running.
 */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

const udp = (id: string) => checkById(`vigil.dos.${id}`);
const svc = (port: number, over: Partial<Service> = {}): Service => ({
  port,
  protocol: 'tcp',
  name: 'unknown',
  product: null,
  version: null,
  banner: null,
  tls: null,
  http: null,
  extra: {},
  ...over,
});
const run = (check: Check, address: string, services: Service[] = []) =>
  check.runOn(
    { address, openPorts: services.map((s) => s.port), services } satisfies HostFacts,
    new Fence([address], ['127.0.0.0/8']).net(address),
  );
const has = (bin: string) => existsSync(bin);
const dir = (t: TestContext) => {
  const d = mkdtempSync(join(tmpdir(), 'vigil-dos-'));
  t.after(() => rmSync(d, { recursive: true, force: true }));
  return d;
};

/** Starts a daemon in the foreground and waits until `port` accepts (TCP) or a moment passed (UDP). */
async function daemon(
  t: TestContext,
  bin: string,
  args: string[],
  ready?: { address: string; port: number },
): Promise<ChildProcess> {
  const child = spawn(bin, args, { stdio: 'ignore' });
  t.after(() => stop(child));
  for (let i = 0; i < 60; i++) {
    if (!ready) {
      await new Promise((r) => setTimeout(r, 700));
      break;
    }
    const up = await new Promise<boolean>((r) =>
      connect(ready.port, ready.address)
        .once('connect', function (this: any) {
          this.destroy();
          r(true);
        })
        .once('error', () => r(false)),
    );
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return child;
}

const freePort = () =>
  new Promise<number>((r) => {
    const s = createTcp().listen(0, '127.0.0.1', () => {
      const p = (s.address() as any).port;
      s.close(() => r(p));
    });
  });

test('memcached (Debian): UDP stats amplification with -U 11211, nothing with -U 0', {
  skip: !has('/usr/bin/memcached') && 'memcached not installed',
}, async (t) => {
  await daemon(t, '/usr/bin/memcached', ['-u', 'nobody', '-l', '127.0.46.1', '-p', '11211', '-U', '11211']);
  await daemon(t, '/usr/bin/memcached', ['-u', 'nobody', '-l', '127.0.46.2', '-p', '11211', '-U', '0'], {
    address: '127.0.46.2',
    port: 11211,
  });
  const [weak] = await run(udp('memcached-udp-amplification'), '127.0.46.1');
  t.diagnostic(weak?.detail ?? 'no finding');
  assert.match(weak!.detail, /UDP 11211: a 15-byte request was answered with \d+ bytes .*factor \d+/);
  assert.deepEqual(await run(udp('memcached-udp-amplification'), '127.0.46.2'), []);
});

test('DNS ANY amplification: BIND answering ANY for its zone vs NSD with refuse-any', {
  skip: (!has('/usr/sbin/named') || !has('/usr/sbin/nsd')) && 'bind9 or nsd not installed',
}, async (t) => {
  const d = dir(t);
  const zone =
    [
      '$TTL 300',
      '@ SOA ns.amp.test. h.amp.test. 1 60 60 600 60',
      '@ NS ns.amp.test.',
      'ns A 127.0.0.1',
      ...[1, 2, 3, 4, 5, 6].flatMap((i) => [`@ A 192.0.2.${i}`, `@ AAAA 2001:db8::${i}`, `@ MX ${i} mx${i}.amp.test.`]),
      '@ TXT "v=spf1 ip4:192.0.2.0/24 -all"',
      '@ TXT "site-verification=abcdefghijklmnopqrstuvwxyz0123456789"',
    ].join('\n') + '\n';
  // 127.0.0.1's PTR names the zone: how the check finds what the server is authoritative for.
  const reverse = '$TTL 300\n@ SOA ns.amp.test. h.amp.test. 1 60 60 600 60\n@ NS ns.amp.test.\n1 PTR www.amp.test.\n';
  writeFileSync(join(d, 'amp.zone'), zone);
  writeFileSync(join(d, 'rev.zone'), reverse);
  const [bindPort, nsdPort] = [await freePort(), await freePort()];
  writeFileSync(
    join(d, 'named.conf'),
    `options { directory "${d}"; listen-on port ${bindPort} { 127.0.0.1; }; listen-on-v6 { none; }; pid-file none; recursion no; dnssec-validation no; };
controls { };
zone "amp.test" { type primary; file "${d}/amp.zone"; };
zone "0.0.127.in-addr.arpa" { type primary; file "${d}/rev.zone"; };
`,
  );
  writeFileSync(
    join(d, 'nsd.conf'),
    `server:
  ip-address: 127.0.0.1@${nsdPort}
  refuse-any: yes
  username: ""
  zonesdir: "${d}"
  pidfile: "${d}/nsd.pid"
  zonelistfile: "${d}/zone.list"
  xfrdfile: "${d}/xfrd.state"
  database: ""
remote-control:
  control-enable: no
zone:
  name: "amp.test"
  zonefile: "amp.zone"
zone:
  name: "0.0.127.in-addr.arpa"
  zonefile: "rev.zone"
`,
  );
  await daemon(t, '/usr/sbin/named', ['-g', '-u', 'root', '-c', join(d, 'named.conf')], {
    address: '127.0.0.1',
    port: bindPort,
  });
  await daemon(t, '/usr/sbin/nsd', ['-d', '-c', join(d, 'nsd.conf')], { address: '127.0.0.1', port: nsdPort });
  const net = new Fence(['127.0.0.1'], ['127.0.0.0/8']).net('127.0.0.1');
  // Both serve the zone; NSD refuses ANY (a truncated or REFUSED answer).
  for (const port of [bindPort, nsdPort])
    assert.equal((await dnsAsk(net, port, 'amp.test', 'SOA'))?.aa, true, `port ${port} serves amp.test`);
  const dns = (port: number) => [svc(port, { name: 'domain' })];
  const weak = await run(dnsAnyAmplification, '127.0.0.1', dns(bindPort));
  const found = weak.find((f) => f.port === bindPort);
  t.diagnostic(found?.detail ?? 'no finding');
  assert.match(
    found?.detail ?? JSON.stringify(weak),
    /ANY amp\.test \(a \d+-byte query\) was answered with \d+ bytes, 22 records/,
  );
  assert.deepEqual(
    (await run(dnsAnyAmplification, '127.0.0.1', dns(nsdPort))).filter((f) => f.port === nsdPort),
    [],
  );
});

/**
 * What Apache httpd before 2.2.20 did with overlapping ranges: every one served (CVE-2011-3192). Debian ships
 * no such server any more.
 */
function oldApache(): Server {
  const body = Buffer.alloc(2000, 'a');
  return createServer((req, res) => {
    const ranges = /^bytes=(.*)$/.exec(req.headers.range ?? '')?.[1]?.split(',');
    if (!ranges) return res.writeHead(200, { server: 'Apache/2.2.19' }).end(body);
    const parts = ranges.map(() =>
      Buffer.concat([Buffer.from(`--B\r\nContent-Range: bytes 0-1999/2000\r\n\r\n`), body, Buffer.from('\r\n')]),
    );
    res
      .writeHead(206, { server: 'Apache/2.2.19', 'content-type': 'multipart/byteranges; boundary=B' })
      .end(Buffer.concat([...parts, Buffer.from('--B--\r\n')]));
  });
}

function apacheConf(d: string, address: string, extra: string): string {
  const mod = (m: string) => `LoadModule ${m}_module /usr/lib/apache2/modules/mod_${m}.so`;
  writeFileSync(join(d, 'index.html'), 'x'.repeat(3000));
  const conf = join(d, `httpd-${address}.conf`);
  writeFileSync(
    conf,
    [
      `ServerRoot ${d}`,
      `PidFile ${d}/httpd-${address}.pid`,
      `ErrorLog ${d}/error-${address}.log`,
      ...['mpm_event', 'authz_core', 'mime', 'dir', 'reqtimeout'].map(mod),
      'TypesConfig /etc/mime.types',
      `Listen ${address}:80`,
      'User nobody',
      'Group nogroup',
      'ServerName localhost',
      `DocumentRoot ${d}`,
      `<Directory ${d}>`,
      '  Require all granted',
      '</Directory>',
      extra,
    ].join('\n'),
  );
  return conf;
}

test('Range amplification: real Apache and nginx coalesce or refuse overlapping ranges; a server that serves every copy is found', async (t) => {
  const old = oldApache();
  await new Promise<void>((r) => old.listen(80, '127.0.46.5', r));
  t.after(() => old.close());
  const web = (port: number) => [svc(port, { name: 'http', http: { status: 200, headers: {}, body: '' } })];
  const [found] = await run(httpRangeAmplification, '127.0.46.5', web(80));
  t.diagnostic(found?.detail ?? 'no finding');
  assert.match(
    found!.detail,
    /GET \/ is 2000 bytes; with Range: bytes=0-,0-,.* it came back 206 with \d+ bytes \(factor 1[12]\.\d\)/,
  );
  const d = dir(t);
  if (has('/usr/sbin/apache2')) {
    await daemon(t, '/usr/sbin/apache2', ['-f', apacheConf(d, '127.0.46.3', ''), '-DFOREGROUND'], {
      address: '127.0.46.3',
      port: 80,
    });
    assert.deepEqual(await run(httpRangeAmplification, '127.0.46.3', web(80)), []);
  } else t.diagnostic('apache2 not installed: Apache part skipped');
  if (has('/usr/sbin/nginx')) {
    writeFileSync(
      join(d, 'nginx.conf'),
      `pid ${d}/nginx.pid; error_log ${d}/nginx.err; events {} http { access_log off; server { listen 127.0.46.4:80; root ${d}; } }`,
    );
    await daemon(t, '/usr/sbin/nginx', ['-p', d, '-c', join(d, 'nginx.conf'), '-g', 'daemon off;'], {
      address: '127.0.46.4',
      port: 80,
    });
    assert.deepEqual(await run(httpRangeAmplification, '127.0.46.4', web(80)), []);
  } else t.diagnostic('nginx not installed: nginx part skipped');
});

test('slow request headers: Debian Apache with its default RequestReadTimeout holds them; one with header=3 does not', {
  skip: !has('/usr/sbin/apache2') && 'apache2 not installed',
}, async (t) => {
  const d = dir(t);
  await daemon(t, '/usr/sbin/apache2', ['-f', apacheConf(d, '127.0.46.6', ''), '-DFOREGROUND'], {
    address: '127.0.46.6',
    port: 80,
  });
  await daemon(
    t,
    '/usr/sbin/apache2',
    ['-f', apacheConf(d, '127.0.46.7', 'RequestReadTimeout header=3 body=10'), '-DFOREGROUND'],
    { address: '127.0.46.7', port: 80 },
  );
  const web = [svc(80, { name: 'http', http: { status: 200, headers: {}, body: '' } })];
  const [weak, hard] = await Promise.all([
    run(httpSlowRequest, '127.0.46.6', web),
    run(httpSlowRequest, '127.0.46.7', web),
  ]);
  assert.equal(weak.length, 1);
  assert.match(weak[0]!.detail, /still open after 6 s/);
  assert.equal(httpSlowRequest.qod, 50); // reported as LOG: one connection cannot show exhaustion
  assert.deepEqual(hard, []);
});

test('TLS client-initiated renegotiation: openssl s_server -client_renegotiation vs its OpenSSL 3 default', {
  skip: !has('/usr/bin/openssl') && 'openssl not installed',
}, async (t) => {
  const d = dir(t);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      join(d, 'k.pem'),
      '-out',
      join(d, 'c.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=vigil-test',
    ],
    { stdio: 'ignore' },
  );
  const serve = (address: string, extra: string[]) =>
    daemon(
      t,
      '/usr/bin/openssl',
      ['s_server', '-accept', `${address}:4433`, '-cert', join(d, 'c.pem'), '-key', join(d, 'k.pem'), '-www', ...extra],
      { address, port: 4433 },
    );
  await serve('127.0.46.8', ['-client_renegotiation']);
  await serve('127.0.46.9', []);
  const tls = [svc(4433, { name: 'https', tls: { protocol: 'TLSv1.3', cipher: '', certificate: null } })];
  const [weak] = await run(tlsClientRenegotiation, '127.0.46.8', tls);
  assert.match(weak!.detail, /renegotiation started by the client was completed/);
  assert.deepEqual(await run(tlsClientRenegotiation, '127.0.46.9', tls), []);
});

/**
 * SSDP and NTP as imitations. Debian has no SSDP responder daemon, and its
 * NTP (ntpsec) has no mode 7. ntpsec does answer mode 6: run by hand with
 * "restrict 127.0.0.1" it answered this check's READVAR with 360 bytes
 * (factor 30) and ignored monlist; it is not started here because it binds
 * UDP 123 on every local address whatever its "interface" lines (observed
 * with "interface ignore all" + "interface listen 127.0.46.14"), which
 * would take port 123 from other loopback twins.
 */
function udpImitation(
  t: TestContext,
  address: string,
  port: number,
  answer: (msg: Buffer) => Buffer | null,
): Promise<void> {
  const s = createSocket('udp4');
  s.on('message', (msg, r) => {
    const reply = answer(msg);
    if (reply) s.send(reply, r.port, r.address);
  });
  t.after(() => s.close());
  return new Promise((r) => s.bind(port, address, () => r()));
}

test('SSDP and NTP amplifiers (imitations): answering servers are found, silent or small answers are not', async (t) => {
  const ssdp = Buffer.from(
    `HTTP/1.1 200 OK\r\nCACHE-CONTROL: max-age=1800\r\nST: upnp:rootdevice\r\nUSN: uuid:0-0::upnp:rootdevice\r\nLOCATION: http://127.0.46.10:49152/desc.xml\r\nSERVER: Linux UPnP/1.0 MiniUPnPd/2.3\r\nEXT:\r\n\r\n`,
  );
  await udpImitation(t, '127.0.46.10', 1900, (m) => (m.toString().startsWith('M-SEARCH') ? ssdp : null));
  await udpImitation(t, '127.0.46.11', 1900, () => null); // an SSDP responder that ignores requests from other networks
  assert.equal((await run(udp('ssdp-amplification'), '127.0.46.10')).length, 1);
  assert.deepEqual(await run(udp('ssdp-amplification'), '127.0.46.11'), []);
  // Mode 7 MON_GETLIST answered with 10 entries of 72 bytes; mode 6 READVAR answered with 460 bytes of variables.
  await udpImitation(t, '127.0.46.12', 123, (m) => {
    if ((m[0]! & 7) === 7)
      return Buffer.concat([Buffer.from([0x97, 0x00, 0x03, 0x2a, 0, 10, 0, 72]), Buffer.alloc(10 * 72)]);
    if ((m[0]! & 7) === 6)
      return Buffer.concat([Buffer.from([0x16, 0x82, 0, 1, 0, 0, 0, 0, 0, 0, 0x01, 0xcc]), Buffer.alloc(460, 0x61)]);
    return null;
  });
  const [monlist] = await run(udp('ntp-monlist'), '127.0.46.12');
  assert.deepEqual(monlist && [monlist.port, /factor 15\.\d/.test(monlist.detail)], [123, true]);
  assert.equal((await run(udp('ntp-mode6-amplification'), '127.0.46.12')).length, 1);
  assert.deepEqual(await run(udp('ntp-monlist'), '127.0.46.13'), []);
});
