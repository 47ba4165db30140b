/**
 * The chain verdict on its own (no network): anchors from NODE_EXTRA_CA_CERTS (read on first use, so set
 * before), from the audit's extra CAs, and none; the path through intermediates the server sent, in any
 * order; OpenSSL's reasons for the untrusted cases.
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { generate } from 'selfsigned';
import { verifyChain } from './tls-trust.ts';

type Pem = { key: string; cert: string };
const make = async (cn: string, o: { ca?: boolean; issuer?: Pem } = {}): Promise<Pem> => {
  const p = await generate([{ name: 'commonName', value: cn }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'basicConstraints', cA: o.ca ?? false }],
    ...(o.issuer ? { ca: o.issuer } : {}),
  });
  return { key: p.private, cert: p.cert };
};
const der = (...pems: Pem[]) => pems.map((p) => new X509Certificate(p.cert).raw);

const dir = mkdtempSync(join(tmpdir(), 'vigil-trust-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('trusted through NODE_EXTRA_CA_CERTS or the extra CAs; untrusted with OpenSSL reasons otherwise', async () => {
  const [envRoot, extraRoot, rogue] = await Promise.all([
    make('Env Root', { ca: true }),
    make('Extra Root', { ca: true }),
    make('Rogue Root', { ca: true }),
  ]);
  const file = join(dir, 'extra.pem');
  writeFileSync(file, envRoot.cert);
  process.env.NODE_EXTRA_CA_CERTS = file; // before the first verdict: the anchors are read once
  const inter = await make('Extra Intermediate', { ca: true, issuer: extraRoot });
  const [envLeaf, interLeaf, rogueLeaf, self] = await Promise.all([
    make('a.test', { issuer: envRoot }),
    make('b.test', { issuer: inter }),
    make('c.test', { issuer: rogue }),
    make('d.test'),
  ]);
  assert.equal(verifyChain(der(envLeaf))?.trusted, true);
  // Leaf, intermediate, root in the store: the server's certificates in any order, the root not needed.
  assert.equal(verifyChain(der(interLeaf, inter), [extraRoot.cert])?.trusted, true);
  assert.equal(verifyChain(der(interLeaf, extraRoot, inter), [extraRoot.cert])?.trusted, true);
  assert.deepEqual(verifyChain(der(interLeaf), [extraRoot.cert]), {
    trusted: false,
    selfSigned: false,
    reason: 'unable to get local issuer certificate',
    issuer: 'CN=Extra Intermediate',
    depth: 1,
  });
  // A root the server sends is no anchor.
  assert.deepEqual(verifyChain(der(rogueLeaf, rogue), [extraRoot.cert]), {
    trusted: false,
    selfSigned: false,
    reason: 'self-signed certificate in certificate chain',
    issuer: 'CN=Rogue Root',
    depth: 2,
  });
  assert.equal(verifyChain(der(self))?.selfSigned, true);
  assert.equal(verifyChain([Buffer.from('not a certificate')]), null);
});
