/**
 * Certificates from an untrusted CA (vigil.tls.cert-untrusted) on real nginx (implicit TLS) and Dovecot
 * (IMAP STARTTLS, POP3 STLS): a leaf from a CA nobody trusts is found, with the CA sent along or the
 * leaf alone; the same server is silent once the CA is trusted (HostFacts.caCertificates, what serve
 * --audit-ca feeds). A self-signed leaf is the self-signed check's alone, an expired leaf from a trusted
 * CA the expiry check's alone, and a missing intermediate is reported while a complete chain is not.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { generate } from 'selfsigned';
import { DOVECOT, dovecot } from '../../../../test/helpers/mail-daemons.ts';
import { ADDR, hostOf, NGINX, netFor, nginx, service, tempDir } from '../../../../test/helpers/web-daemons.ts';
import { Fence } from '../../engine/fence.ts';
import { runAudit } from '../../engine/run.ts';
import type { Service } from '../../engine/types.ts';
import { readTlsInfo } from '../../proto/tls.ts';
import { checkById } from '../catalogue.ts';

const DAY = 86_400_000;
interface Pem {
  key: string;
  cert: string;
}

async function ca(name: string, issuer?: Pem): Promise<Pem> {
  const p = await generate([{ name: 'commonName', value: name }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true },
    ],
    ...(issuer ? { ca: issuer } : {}),
  });
  return { key: p.private, cert: p.cert };
}

async function leafOf(issuer: Pem | null, o: { expired?: boolean } = {}): Promise<Pem> {
  const p = await generate([{ name: 'commonName', value: 'www.vigil.test' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - (o.expired ? 400 : 1) * DAY),
    notAfterDate: new Date(Date.now() + (o.expired ? -30 : 365) * DAY),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'www.vigil.test' }] },
    ],
    ...(issuer ? { ca: issuer } : {}),
  });
  return { key: p.private, cert: p.cert };
}

/** Files for a daemon: the key, and the leaf followed by `chain` (what the server sends). */
function files(leaf: Pem, chain: Pem[]): { cert: string; key: string } {
  const dir = tempDir('untrusted');
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  writeFileSync(cert, [leaf, ...chain].map((p) => p.cert.trim()).join('\n') + '\n');
  writeFileSync(key, leaf.key, { mode: 0o644 });
  return { cert, key };
}

const run = async (id: string, address: string, svc: Service, trusted: string[] = []) =>
  checkById(id).runOn({ ...hostOf(address, [svc]), caCertificates: trusted }, netFor(address));

async function https(n: number, f: { cert: string; key: string }) {
  const address = ADDR(n);
  const port = await nginx(
    address,
    `ssl_certificate ${f.cert}; ssl_certificate_key ${f.key};`,
    { 'index.html': 'ok' },
    'ssl',
  );
  return { address, svc: service(port, 'https', { tls: await readTlsInfo(netFor(address), port) }) };
}

test('nginx: untrusted CA found (CA sent, leaf alone, intermediate missing); trusted, self-signed and expired left to others', {
  skip: NGINX ? false : 'nginx is not installed',
}, async () => {
  const [rogue, root] = await Promise.all([ca('Vigil Rogue CA'), ca('Vigil Test Root CA')]);
  const inter = await ca('Vigil Test Intermediate CA', root);
  const [rogueLeaf, rootLeaf, interLeaf, selfLeaf, expiredLeaf] = await Promise.all([
    leafOf(rogue),
    leafOf(root),
    leafOf(inter),
    leafOf(null),
    leafOf(root, { expired: true }),
  ]);
  const [withCa, alone, trusted, chained, noInter, self, expired] = await Promise.all([
    https(81, files(rogueLeaf, [rogue])),
    https(82, files(rogueLeaf, [])),
    https(83, files(rootLeaf, [root])),
    https(84, files(interLeaf, [inter])),
    https(85, files(interLeaf, [])),
    https(86, files(selfLeaf, [])),
    https(87, files(expiredLeaf, [root])),
  ]);
  const id = 'vigil.tls.cert-untrusted';
  const anchors = [root.cert];

  const [a] = await run(id, withCa.address, withCa.svc, anchors);
  assert.match(
    a!.detail,
    /: self-signed certificate in certificate chain \(the path stops at the issuer "CN=Vigil Rogue CA"/,
  );
  assert.match(
    a!.detail,
    /the server sent 2 certificates\) \(subject: CN=www\.vigil\.test; issuer: CN=Vigil Rogue CA\)$/,
  );
  const [b] = await run(id, alone.address, alone.svc, anchors);
  assert.match(
    b!.detail,
    /: unable to get local issuer certificate \(the path stops at the issuer "CN=Vigil Rogue CA".*its certificate alone\)/,
  );
  // The operator's CA makes the same kind of chain trusted; without it, it is not.
  assert.deepEqual(await run(id, trusted.address, trusted.svc, anchors), []);
  const [c] = await run(id, trusted.address, trusted.svc, []);
  assert.match(c!.detail, /self-signed certificate in certificate chain .*"CN=Vigil Test Root CA"/);
  // Leaf, intermediate, trusted root: complete when the server sends the intermediate, broken when not.
  assert.deepEqual(await run(id, chained.address, chained.svc, anchors), []);
  const [d] = await run(id, noInter.address, noInter.svc, anchors);
  assert.match(
    d!.detail,
    /unable to get local issuer certificate \(the path stops at the issuer "CN=Vigil Test Intermediate CA"/,
  );
  // One finding per weakness: a self-signed leaf is the self-signed check's, expiry the expiry check's.
  assert.deepEqual(await run(id, self.address, self.svc, anchors), []);
  assert.equal((await run('vigil.tls.cert-self-signed', self.address, self.svc)).length, 1);
  assert.deepEqual(await run('vigil.tls.cert-self-signed', withCa.address, withCa.svc), []);
  assert.deepEqual(await run(id, expired.address, expired.svc, anchors), []);
  assert.equal((await run('vigil.tls.cert-expired', expired.address, expired.svc, anchors)).length, 1);
});

test('dovecot: a certificate from an untrusted CA after STARTTLS and STLS is found; a trusted CA is not', {
  skip: DOVECOT ? false : 'dovecot is not installed',
}, async () => {
  const [rogue, root] = await Promise.all([ca('Vigil Rogue CA'), ca('Vigil Test Root CA')]);
  const [rogueLeaf, rootLeaf] = await Promise.all([leafOf(rogue), leafOf(root)]);
  const conf = (f: { cert: string; key: string }) => `ssl = yes\nssl_cert = <${f.cert}\nssl_key = <${f.key}\n`;
  const [weak, hard] = await Promise.all([
    dovecot(ADDR(88), conf(files(rogueLeaf, [rogue]))),
    dovecot(ADDR(89), conf(files(rootLeaf, [root]))),
  ]);
  const id = 'vigil.tls.cert-untrusted';
  const anchors = [root.cert];
  const [imap] = await run(id, ADDR(88), service(weak.imap, 'imap'), anchors);
  assert.match(
    imap!.detail,
    /self-signed certificate in certificate chain .*"CN=Vigil Rogue CA".* \(after STARTTLS\) \(subject/,
  );
  const [pop3] = await run(id, ADDR(88), service(weak.pop3, 'pop3'), anchors);
  assert.match(pop3!.detail, /\(after STARTTLS\)/);
  assert.deepEqual(await run(id, ADDR(89), service(hard.imap, 'imap'), anchors), []);
  assert.deepEqual(await run(id, ADDR(89), service(hard.pop3, 'pop3'), anchors), []);
});

test('the engine hands its caCertificates option (serve --audit-ca) to the check', {
  skip: NGINX ? false : 'nginx is not installed',
}, async () => {
  const root = await ca('Vigil Test Internal CA');
  const site = await https(90, files(await leafOf(root), [root]));
  const audit = (caCertificates?: string[]) =>
    runAudit(
      { type: 'basic', excludedos: false, addresses: [site.address], ports: [site.svc.port], discovery: false },
      new Fence([site.address], [site.address]),
      caCertificates ? { caCertificates } : {},
    );
  const ids = async (o?: string[]) => (await audit(o)).hosts[0]!.findings.map((f) => f.check.id);
  assert.ok((await ids()).includes('vigil.tls.cert-untrusted'));
  assert.ok(!(await ids([root.cert])).includes('vigil.tls.cert-untrusted'));
});
