/**
 * CoAP on Debian libcoap's coap-server, started once for the file: plain
 * CoAP on UDP 5683 answers /.well-known/core to anyone (resource discovery,
 * and a reply larger than the request: amplification); the twin speaks
 * only DTLS on 5683 (coap-server -k listens for DTLS on its port + 1), and
 * neither check reports it.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { onCleanup, stop, which } from '../../../../test/helpers/daemons-kit.ts';
import { hostOf, netFor } from '../../../../test/helpers/web-daemons.ts';
import { eventually } from '../../../../test/helpers/wait.ts';
import { coapWellKnown } from '../../proto/coap.ts';
import { checkById } from '../catalogue.ts';

// libcoap3-bin ships one server per TLS library; DTLS needs OpenSSL's or GnuTLS's.
const COAP = which('coap-server-openssl') ?? which('coap-server-gnutls');
const [OPEN, HARD] = ['127.0.164.31', '127.0.164.32'];
const PORT = 5683; // the checks ask UDP 5683 on every host

function coapServer(address: string, args: string[], answersOn: number): Promise<void> {
  const p = spawn(COAP!, ['-A', address, ...args], { stdio: 'ignore', detached: true });
  onCleanup(() => stop(p));
  return eventually(
    async () => (await coapWellKnown(netFor(address), answersOn)) !== null,
    `coap-server on ${address}`,
  );
}

let started: Promise<unknown> | null = null;
const both = () =>
  (started ??= Promise.all([
    coapServer(OPEN, ['-p', String(PORT)], PORT),
    coapServer(HARD, ['-p', String(PORT - 1), '-k', randomBytes(12).toString('hex')], PORT - 1),
  ]));
const skip = COAP ? false : 'coap-server-openssl is not installed (apt-get install libcoap3-bin)';
const run = (id: string, address: string) => checkById(id).runOn(hostOf(address, []), netFor(address));

test('resource discovery: the plain server lists its resources; DTLS only on 5683 says nothing', { skip }, async () => {
  await both();
  const [f] = await run('vigil.coap.resource-discovery', OPEN);
  assert.match(
    f!.detail,
    /^GET \/\.well-known\/core \(CoAP, UDP 5683, no DTLS\) was answered 2\.05 Content with \d+ resources: /,
  );
  assert.deepEqual(await run('vigil.coap.resource-discovery', HARD), []);
});

test('amplification: the reply to the 23-byte request is measured; the DTLS-only twin is silent', {
  skip,
}, async () => {
  await both();
  const [f] = await run('vigil.dos.coap-amplification', OPEN);
  assert.match(
    f!.detail,
    /^UDP 5683: a 23-byte request was answered with \d+ bytes in its first datagram alone \(factor \d+\.\d\)\.$/,
  );
  assert.deepEqual(await run('vigil.dos.coap-amplification', HARD), []);
});
