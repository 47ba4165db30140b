import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { Fence } from '../../engine/fence.ts';

import { parseNseXml, verdictQod } from '../lib/nse-xml.ts';
import { createServer as createTcp } from 'node:net';
import { checkById } from '../catalogue.ts';

const nseVuln = checkById('vigil.nse.vuln');

const hasNmap = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v nmap']);
    return true;
  } catch {
    return false;
  }
})();

test('nmap XML: script outputs become findings with their CVEs; "NOT VULNERABLE" and errors do not', () => {
  const xml = `<nmaprun><host><ports>
<port protocol="tcp" portid="443"><state state="open"/><script id="ssl-heartbleed" output="&#xa;  VULNERABLE:&#xa;  State: VULNERABLE&#xa;  IDs:  CVE:CVE-2014-0160"/></port>
<port protocol="tcp" portid="80"><script id="http-vuln-x" output="NOT VULNERABLE"/><script id="http-git" output="&#xa;  127.0.0.1:80/.git/&#xa;    Git repository found!"/></port>
</ports></host></nmaprun>`;
  const found = parseNseXml(xml);
  assert.deepEqual(
    found.map((f) => [f.port, f.title, f.risk, f.cves]),
    [
      [443, 'nmap NSE ssl-heartbleed', 'high', ['CVE-2014-0160']],
      [80, 'nmap NSE http-git', 'medium', []],
    ],
  );
  assert.match(found[1]!.detail, /^nmap NSE http-git: 127\.0\.0\.1:80\/\.git\/ Git repository found!/);
});

test('nmap XML recorded from real runs: only positive verdicts become findings', () => {
  // Outputs as nmap 7.93 wrote them (-oX), against a silent TLS port, an nginx with Range, a patched OpenSSL.
  const xml = `<nmaprun><host><ports>
<port protocol="tcp" portid="443"><state state="open"/><script id="tls-ticketbleed" output="ERROR: Script execution failed (use -d to debug)"/><script id="ssl-ccs-injection" output="No reply from server (TIMEOUT)"/></port>
<port protocol="tcp" portid="8443"><script id="ssl-poodle" output="&#xa;  VULNERABLE:&#xa;  SSL POODLE information leak&#xa;    State: LIKELY VULNERABLE&#xa;    IDs:  CVE:CVE-2014-3566"/><script id="ssl-dh-params" output="&#xa;  VULNERABLE:&#xa;  Diffie-Hellman Key Exchange Insufficient Group Strength&#xa;    State: VULNERABLE&#xa;      Modulus Length: 1024"/></port>
<port protocol="tcp" portid="80"><script id="http-vuln-cve2011-3192" output="&#xa;  Apache byterange filter DoS&#xa;    State: NOT VULNERABLE"/><script id="http-vuln-cve2014-2126" output="&#xa;    State: UNKNOWN (unable to test)"/><script id="http-trace" output="TRACE is enabled"/><script id="http-internal-ip-disclosure" output="Couldn't find any internal IP"/></port>
</ports></host></nmaprun>`;
  const found = parseNseXml(xml);
  assert.deepEqual(
    found.map((f) => [f.port, f.title, f.qod]),
    [
      [8443, 'nmap NSE ssl-poodle', 50],
      [8443, 'nmap NSE ssl-dh-params', 99],
      [80, 'nmap NSE http-trace', 95],
    ],
  );
  assert.equal(verdictQod('No reply from server (TIMEOUT)'), null);
  assert.equal(verdictQod('  ERROR: Script execution failed (use -d to debug)'), null);
  assert.equal(verdictQod('State: VULNERABLE (Exploitable)'), 99);
});

test('a real nmap run against a silent TLS port: "No reply from server (TIMEOUT)" and script errors raise nothing', {
  skip: !hasNmap && 'nmap not installed',
}, async (t) => {
  // ssl-ccs-injection answers "No reply from server (TIMEOUT)" here and tls-ticketbleed "ERROR: Script
  // execution failed".
  const address = '127.0.0.38';
  const server = createTcp((s) => s.on('error', () => {}).on('data', () => {}));
  await new Promise<void>((r) => server.listen(443, address, r));
  t.after(() => server.close());
  const found = await nseVuln.runOn(
    { address, openPorts: [443], services: [] },
    new Fence([address], ['127.0.0.0/8']).net(address),
  );
  assert.deepEqual(found, []);
});

test('a real nmap run: an exposed .git repository is reported; a clean server is not', {
  skip: !hasNmap && 'nmap not installed',
}, async () => {
  const serve = (git: boolean, address: string) => {
    const server = createServer((req, res) => {
      if (git && req.url === '/.git/HEAD') return res.end('ref: refs/heads/main\n');
      if (git && req.url === '/.git/config') return res.end('[core]\n\trepositoryformatversion = 0\n');
      if (git && req.url === '/.git/description') return res.end('Unnamed repository; edit this file\n');
      res.writeHead(404).end();
    });
    return new Promise<typeof server>((r) => server.listen(80, address, () => r(server)));
  };
  const exposed = await serve(true, '127.0.0.34');
  const clean = await serve(false, '127.0.0.35');
  try {
    const run = (address: string) =>
      nseVuln.runOn({ address, openPorts: [80], services: [] }, new Fence([address], ['127.0.0.0/8']).net(address));
    const found = await run('127.0.0.34');
    assert.ok(
      found.some((f) => f.title === 'nmap NSE http-git' && f.port === 80),
      JSON.stringify(found),
    );
    assert.deepEqual(await run('127.0.0.35'), []);
  } finally {
    exposed.close();
    clean.close();
  }
});

test('a product-specific NSE result is dropped when detection named another product on the port', {
  skip: !hasNmap && 'nmap not installed',
}, async () => {
  // Answers 206 to any Range request: what http-vuln-cve2011-3192 calls "VULNERABLE" (Apache byterange DoS).
  const server = createServer((req, res) =>
    res.writeHead(req.headers.range ? 206 : 200, { 'content-length': '101' }).end(),
  );
  await new Promise<void>((r) => server.listen(80, '127.0.0.36', r));
  try {
    const address = '127.0.0.36';
    const as = (product: string) => ({
      address,
      openPorts: [80],
      services: [
        {
          port: 80,
          protocol: 'tcp' as const,
          name: 'http',
          product,
          version: null,
          banner: null,
          tls: null,
          http: { status: 200, headers: { server: product }, body: '' },
          extra: {},
        },
      ],
    });
    const byterange = (found: { title?: string }[]) =>
      found.filter((f) => f.title === 'nmap NSE http-vuln-cve2011-3192');
    const net = new Fence([address], ['127.0.0.0/8']).net(address);
    assert.equal(byterange(await nseVuln.runOn(as('Apache'), net)).length, 1);
    assert.deepEqual(byterange(await nseVuln.runOn(as('nginx'), net)), []);
  } finally {
    server.close();
  }
});
