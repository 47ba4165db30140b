import assert from 'node:assert/strict';
import { request } from 'node:https';
import { createServer as createTcpServer, type Server } from 'node:net';
import { test } from 'node:test';
import { createServer as createHttpsServer } from 'node:https';
import { generate } from 'selfsigned';
import { Fence } from '../../engine/fence.ts';
import type { HostFacts, HttpInfo, Net, Service } from '../../engine/types.ts';
import { readTlsInfo } from '../../proto/tls.ts';
import { clientHello, parseServerHello, SSL3, TLS12 } from '../../proto/tls-hello.ts';
import { CHECKS } from '../catalogue.ts';

const TLS_CHECKS = CHECKS.filter((c) => c.id.startsWith('vigil.tls.'));

const net: Net = new Fence(['127.0.0.1'], ['127.0.0.1']).net('127.0.0.1', 5000);
const listen = (s: Server) =>
  new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as { port: number }).port)));

/** What service detection would record: the handshake and the HTTP answer. */
async function facts(port: number): Promise<HostFacts> {
  const tls = await readTlsInfo(net, port);
  const http = await new Promise<HttpInfo | null>((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/',
        rejectUnauthorized: false,
        minVersion: 'TLSv1',
        ciphers: 'ALL:@SECLEVEL=0',
        timeout: 5000,
      },
      (res) => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers, body: '' }));
      },
    );
    req.on('error', () => resolve(null));
    req.on('timeout', () => req.destroy());
    req.end();
  });
  const svc: Service = {
    port,
    protocol: 'tcp',
    name: 'https',
    product: null,
    version: null,
    banner: null,
    tls,
    http,
    extra: {},
  };
  return { address: '127.0.0.1', openPorts: [port], services: [svc] };
}

async function flaggedIds(host: HostFacts): Promise<string[]> {
  const ids: string[] = [];
  for (const c of TLS_CHECKS) if ((await c.runOn(host, net)).length) ids.push(c.id);
  return ids.sort();
}

test('weak server: expired self-signed 1024-bit SHA-1 cert, TLS 1.0, NULL and anonymous suites, no HSTS', async (t) => {
  // Node's OpenSSL serves TLS 1.0/1.1, NULL and anon suites only at SECLEVEL=0.
  const pems = await generate([{ name: 'commonName', value: 'weak.test' }], {
    keySize: 1024,
    algorithm: 'sha1',
    notBeforeDate: new Date(Date.now() - 400 * 864e5),
    notAfterDate: new Date(Date.now() - 30 * 864e5),
  });
  const server = createHttpsServer(
    { key: pems.private, cert: pems.cert, minVersion: 'TLSv1', ciphers: 'ALL:eNULL:@SECLEVEL=0' },
    (_q, r) => r.end('hi'),
  );
  const port = await listen(server);
  t.after(() => server.close());
  const host = await facts(port);
  assert.equal(host.services[0]!.tls?.certificate?.keyBits, 1024);
  assert.equal(host.services[0]!.tls?.certificate?.signatureAlgorithm, 'sha1WithRSAEncryption');
  const ids = await flaggedIds(host);
  for (const id of [
    'tls10',
    'tls11',
    'cipher-null',
    'cipher-anon',
    'cert-expired',
    'cert-self-signed',
    'cert-hostname',
    'cert-weak-key',
    'cert-weak-signature',
    'hsts-missing',
  ]) {
    assert.ok(ids.includes(`vigil.tls.${id}`), `${id} not flagged; got ${ids.join(' ')}`);
  }
  assert.ok(!ids.includes('vigil.tls.cert-not-yet-valid'));
  const tls10 = await TLS_CHECKS.find((c) => c.id === 'vigil.tls.tls10')!.runOn(host, net);
  assert.match(tls10[0]!.detail, /TLS 1\.0/);
});

test('hardened server: CA-signed 2048-bit cert for 127.0.0.1, TLS 1.2+, strong suites, HSTS: nothing flagged', async (t) => {
  const ca = await generate([{ name: 'commonName', value: 'Vigil Test CA' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const server = createHttpsServer({ key: leaf.private, cert: leaf.cert, minVersion: 'TLSv1.2' }, (_q, r) => {
    r.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    r.end('ok');
  });
  const port = await listen(server);
  t.after(() => server.close());
  // The test CA is trusted as an operator's internal CA is (serve --audit-ca): without it, cert-untrusted fires.
  const host = { ...(await facts(port)), caCertificates: [ca.cert] };
  assert.equal(host.services[0]!.tls?.certificate?.selfSigned, false);
  assert.deepEqual(await flaggedIds(host), []);
});

/** A fake server answering any ClientHello with a ServerHello for one suite at one version. */
function fakeTls(version: number, pick: (offered: number[]) => number | null): Server {
  return createTcpServer((sock) => {
    sock.on('error', () => {});
    sock.once('data', (d: Buffer) => {
      const hs = d.subarray(5);
      const offeredVersion = hs.readUInt16BE(4);
      const sid = hs[38]!;
      const n = hs.readUInt16BE(39 + sid);
      const offered = Array.from({ length: n / 2 }, (_, i) => hs.readUInt16BE(41 + sid + i * 2));
      const suite = pick(offered);
      if (suite === null || offeredVersion < version) return sock.end(Buffer.from([21, 3, 1, 0, 2, 2, 40])); // handshake_failure
      const body = Buffer.concat([
        Buffer.from([version >> 8, version & 0xff]),
        Buffer.alloc(32, 7),
        Buffer.from([0, suite >> 8, suite & 0xff, 0]),
      ]);
      const msg = Buffer.concat([Buffer.from([2, 0, 0, body.length]), body]);
      sock.end(Buffer.concat([Buffer.from([22, version >> 8, version & 0xff, 0, msg.length]), msg]));
    });
  });
}

test('raw probes: SSLv3, RC4, 3DES and EXPORT acceptance seen in the ServerHello', async (t) => {
  const cases: [string, number, number][] = [
    ['vigil.tls.sslv3', SSL3, 0x0005],
    ['vigil.tls.cipher-rc4', TLS12, 0x0005],
    ['vigil.tls.cipher-des', TLS12, 0x000a],
    ['vigil.tls.cipher-export', TLS12, 0x0003],
  ];
  for (const [id, version, suite] of cases) {
    const server = fakeTls(version, (offered) => (offered.includes(suite) ? suite : null));
    const port = await listen(server);
    t.after(() => server.close());
    const host: HostFacts = {
      address: '127.0.0.1',
      openPorts: [port],
      services: [
        {
          port,
          protocol: 'tcp',
          name: 'https',
          product: null,
          version: null,
          banner: null,
          tls: null,
          http: null,
          extra: {},
        },
      ],
    };
    const check = TLS_CHECKS.find((c) => c.id === id)!;
    assert.equal((await check.runOn(host, net)).length, 1, `${id} not flagged`);
    // A server choosing only AES-GCM must not be flagged for this weakness.
    const strong = fakeTls(TLS12, (offered) => (offered.includes(0xc02f) ? 0xc02f : null));
    const strongPort = await listen(strong);
    t.after(() => strong.close());
    host.services[0]!.port = strongPort;
    assert.equal((await check.runOn(host, net)).length, 0, `${id} flagged on a strong server`);
  }
});

test('ServerHello parser: alerts, short and odd data', () => {
  assert.equal(parseServerHello(Buffer.from([21, 3, 1, 0, 2, 2, 40])), null);
  assert.equal(parseServerHello(Buffer.from([22, 3, 1])), 'more');
  assert.equal(parseServerHello(Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n')), null);
  const hello = clientHello(TLS12, [0x002f], 'example.com');
  assert.equal(hello[0], 22);
  assert.equal(hello.readUInt16BE(3), hello.length - 5);
});

test('nothing listening: probes report nothing and do not throw', async () => {
  const server = createTcpServer();
  const port = await listen(server);
  await new Promise((r) => server.close(r));
  const host: HostFacts = {
    address: '127.0.0.1',
    openPorts: [port],
    services: [
      {
        port,
        protocol: 'tcp',
        name: 'https',
        product: null,
        version: null,
        banner: null,
        tls: null,
        http: null,
        extra: {},
      },
    ],
  };
  for (const c of TLS_CHECKS) assert.deepEqual(await c.runOn(host, net), []);
});
