/**
 * A leaf certificate signed by a CA made for the test (openssl: a few
 * milliseconds, where a key pair made in JavaScript takes seconds on a
 * loaded 2-core machine): what a hardened twin presents instead of a
 * self-signed certificate, as internal CAs issue them.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { certificate, tempDir } from './web-daemons.ts';

/** cert.pem holds the leaf for `name` (a DNS name or an address, in its SAN), then the CA. */
export function caSigned(dir: string, name = 'mail.vigil.test'): { cert: string; key: string } {
  const ca = certificate(tempDir('test-ca'), { cn: 'Vigil Test Internal CA' });
  const [key, csr, leaf, ext] = ['key.pem', 'leaf.csr', 'leaf.pem', 'ext.cnf'].map((n) => join(dir, n)) as [
    string,
    string,
    string,
    string,
  ];
  const ossl = (args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  ossl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', csr, '-subj', `/CN=${name}`]);
  writeFileSync(ext, `basicConstraints=CA:FALSE\nsubjectAltName=${isIP(name) ? 'IP' : 'DNS'}:${name}\n`);
  ossl(
    ['x509', '-req', '-in', csr, '-CA', ca.cert, '-CAkey', ca.key, '-CAcreateserial', '-days', '365'].concat([
      '-extfile',
      ext,
      '-out',
      leaf,
    ]),
  );
  const chain = join(dir, 'chain.pem');
  writeFileSync(chain, readFileSync(leaf, 'utf8') + readFileSync(ca.cert, 'utf8'));
  chmodSync(key, 0o644);
  return { cert: chain, key };
}
