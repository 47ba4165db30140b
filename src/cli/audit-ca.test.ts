/** `--audit-ca FILE` (serve and worker): the PEM bundle is read at start, and a file of no certificate is refused. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { generate } from 'selfsigned';
import { buildConfig } from '../config.ts';
import { auditCaOption, readCaBundle } from './options.ts';

const dir = mkdtempSync(join(tmpdir(), 'vigil-audit-ca-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a PEM bundle gives its certificates, in order; the config holds them', async () => {
  const [a, b] = await Promise.all(
    ['Vigil Test CA One', 'Vigil Test CA Two'].map((cn) =>
      generate([{ name: 'commonName', value: cn }], { keySize: 2048 }),
    ),
  );
  const file = join(dir, 'bundle.pem');
  writeFileSync(file, `# internal CAs\n${a!.cert}\n${b!.cert}`);
  const blocks = readCaBundle(file);
  assert.equal(blocks.length, 2);
  assert.equal(blocks[0], a!.cert.trim());
  assert.deepEqual(buildConfig({ auditCa: blocks }).auditCa, blocks);
  assert.deepEqual(buildConfig({}).auditCa, []);
  assert.equal(auditCaOption().envVar, 'VIGIL_AUDIT_CA');
});

test('a missing file, a file with no certificate, or a broken one is refused', () => {
  assert.throws(() => readCaBundle(join(dir, 'none.pem')), /cannot read .*none\.pem \(ENOENT\)/);
  const empty = join(dir, 'empty.pem');
  writeFileSync(empty, 'not a certificate\n');
  assert.throws(() => readCaBundle(empty), /no PEM certificate/);
  const broken = join(dir, 'broken.pem');
  writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
  assert.throws(() => readCaBundle(broken), /certificate 1 cannot be read/);
});
