/**
 * XMPP on a real Debian Prosody, one process, one VirtualHost per address
 * (the stream names the address): an open host (encryption not required,
 * PLAIN before TLS, in-band registration, a self-signed certificate behind
 * STARTTLS), an anonymous host, the hardened twin (TLS required, no
 * registration, a CA-signed certificate), which no check reports, and an
 * address with no host of its own, where "localhost" is found.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { caSigned } from '../../../../test/helpers/ca-signed.ts';
import { daemon, tempDir, which } from '../../../../test/helpers/daemons-kit.ts';
import { prosodyConf } from '../../../../test/helpers/voip-configs.ts';
import { certificate, hostOf, netFor, service, writeFiles } from '../../../../test/helpers/web-daemons.ts';
import { detectOne } from '../../engine/detect.ts';
import type { Service } from '../../engine/types.ts';
import { checkById } from '../catalogue.ts';

const PROSODY = which('prosody');
const [OPEN, ANON, HARD, LOCAL] = [1, 2, 3, 4].map((n) => `127.0.164.${n}`) as [string, string, string, string];
const PORT = 5222; // detection tries its XMPP probe on the XMPP ports only

let started: Promise<void> | null = null;
function prosody(): Promise<void> {
  started ??= (async () => {
    const dir = tempDir('prosody');
    const self = certificate(tempDir('prosody-self'), { cn: OPEN });
    const signed = caSigned(tempDir('prosody-signed'), HARD);
    writeFiles(dir, { 'data/.keep': '' });
    const conf = join(dir, 'prosody.cfg.lua');
    writeFiles(dir, {
      'prosody.cfg.lua': prosodyConf(dir, [OPEN, ANON, HARD, LOCAL], PORT, [
        { domain: OPEN, mode: 'open', ...self },
        { domain: ANON, mode: 'anonymous', ...self },
        { domain: HARD, mode: 'hardened', ...signed },
        // LOCAL has no VirtualHost of its own: Debian's prosody.cfg.lua ships VirtualHost "localhost".
        { domain: 'localhost', mode: 'open', ...self },
      ]),
    });
    await daemon(OPEN, PROSODY!, () => ['--config', conf, '-F'], { port: PORT });
  })();
  return started;
}

const skip = PROSODY ? false : 'prosody is not installed (apt-get install prosody)';
const xmpp = (extra: Partial<Service> = {}) => service(PORT, 'xmpp-client', extra);
const run = (id: string, address: string) => checkById(id).runOn(hostOf(address, [xmpp()]), netFor(address));

test('detection names the port xmpp-client and keeps the domain it hosts', { skip }, async () => {
  await prosody();
  const s = await detectOne(netFor(OPEN), PORT, { nmapProbes: false });
  assert.equal(s.name, 'xmpp-client');
  assert.equal(s.extra.xmppDomain, OPEN);
});

test('a server that does not host the address is asked for "localhost", as packaged configurations ship', {
  skip,
}, async () => {
  await prosody();
  const s = await detectOne(netFor(LOCAL), PORT, { nmapProbes: false });
  assert.deepEqual([s.name, s.extra.xmppDomain], ['xmpp-client', 'localhost']);
  const [f] = await run('vigil.xmpp.cleartext-login', LOCAL);
  assert.match(f!.detail, /^The stream header to 'localhost' was answered/);
});

test('PLAIN before TLS is found on the open host; the host requiring TLS is not reported', { skip }, async () => {
  await prosody();
  const [f, ...more] = await run('vigil.xmpp.cleartext-login', OPEN);
  assert.equal(more.length, 0);
  assert.match(
    f!.detail,
    /unencrypted connection, with the login mechanisms .*PLAIN.*STARTTLS offered but not required.*PLAIN sends the password in clear text/,
  );
  assert.deepEqual(await run('vigil.xmpp.cleartext-login', HARD), []);
});

test('SASL ANONYMOUS is proven by the bound JID; the other hosts are not reported', { skip }, async () => {
  await prosody();
  const [f] = await run('vigil.xmpp.anonymous-login', ANON);
  assert.match(
    f!.detail,
    /answered "<success[^"]*", and resource binding gave the JID \S+@127\.0\.164\.2\/\S+: logged in/,
  );
  assert.deepEqual(await run('vigil.xmpp.anonymous-login', OPEN), []);
  assert.deepEqual(await run('vigil.xmpp.anonymous-login', HARD), []);
});

test('in-band registration: the form is found on the open host, not on the hardened one', { skip }, async () => {
  await prosody();
  const [f] = await run('vigil.xmpp.open-registration', OPEN);
  assert.match(
    f!.detail,
    /\(after STARTTLS\), before any login, was answered with the form for a new account \(fields: .*username.*\)/,
  );
  assert.deepEqual(await run('vigil.xmpp.open-registration', HARD), []);
});

test('STARTTLS on XMPP feeds the certificate checks: self-signed found, CA-signed twin not', { skip }, async () => {
  await prosody();
  const check = checkById('vigil.tls.cert-self-signed');
  const [f] = await check.runOn(hostOf(OPEN, [xmpp({ extra: { xmppDomain: OPEN } })]), netFor(OPEN));
  assert.match(f!.detail, /self-signed\. \(after STARTTLS\)/);
  assert.deepEqual(await check.runOn(hostOf(HARD, [xmpp()]), netFor(HARD)), []);
});
