/**
 * RDP's security negotiation on Debian's xrdp: security_layer=negotiate
 * (Debian's default, which grants Standard RDP Security to a client that
 * offers only that) is reported; security_layer=tls refuses the same offer
 * with SSL_REQUIRED_BY_SERVER and is not. Each xrdp runs in a mount
 * namespace of its own (its PID file lives in /run/xrdp), on a 127.0.84.x
 * address. Root only.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import { FAILURES, negotiate, PROTOCOL } from '../../proto/rdp.ts';
import { checkById } from '../catalogue.ts';

const WEAK = '127.0.84.1';
const TLS = '127.0.84.2';
const READY = process.getuid?.() === 0 && ['xrdp', 'unshare'].every((b) => which(b));

/** xrdp on addr with Debian's xrdp.ini, its listener and security layer changed. */
async function xrdp(addr: string, layer: 'negotiate' | 'tls'): Promise<number> {
  const dir = tempDir('xrdp');
  return daemon(addr, 'unshare', (port) => {
    const ini = readFileSync('/etc/xrdp/xrdp.ini', 'utf8')
      .replace(/^port=3389$/m, `port=tcp://${addr}:${port}`)
      .replace(/^security_layer=.*$/m, `security_layer=${layer}`);
    writeFileSync(join(dir, 'xrdp.ini'), ini);
    return ['-m', 'sh', '-c', `mount -t tmpfs none /run/xrdp && exec xrdp -n -c ${join(dir, 'xrdp.ini')}`];
  });
}

test('xrdp granting Standard RDP Security is reported; with security_layer=tls it is not', {
  skip: READY ? false : 'needs root, xrdp (Debian xrdp) and unshare',
}, async () => {
  const [weak, tls] = await Promise.all([xrdp(WEAK, 'negotiate'), xrdp(TLS, 'tls')]);
  const check = checkById('vigil.rdp.standard-security');

  const [found] = await check.runOn(hostOf(WEAK, [service(weak, 'ms-wbt-server')]), netFor(WEAK));
  assert.ok(found, 'negotiate is reported');
  assert.equal(found.port, weak);
  assert.equal(
    found.detail,
    'An X.224 Connection Request offering Standard RDP Security alone (requestedProtocols 0x0) was confirmed with RDP_NEG_RSP selectedProtocol 0x0 (PROTOCOL_RDP). Offered TLS and CredSSP, it chose TLS: Network Level Authentication is not available.',
  );

  // The hardened twin refuses the same offer, which is no finding.
  const refusal = await negotiate(netFor(TLS), tls, PROTOCOL.RDP);
  assert.deepEqual(refusal, { kind: 'failure', code: 1 });
  assert.equal(FAILURES[1], 'SSL_REQUIRED_BY_SERVER');
  assert.deepEqual(await check.runOn(hostOf(TLS, [service(tls, 'ms-wbt-server')]), netFor(TLS)), []);
});
