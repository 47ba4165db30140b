/**
 * NIS on Debian's ypserv (test/helpers/nis-daemons.ts): a domain whose
 * passwd map is served to anyone who names it, found through the
 * portmapper with the domain read off another service's banner; the twin
 * admits only 192.0.2.0/24 in /var/yp/securenets, so the same requests are
 * refused and nothing is reported. Root only (namespaces).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { which } from '../../../../test/helpers/daemons-kit.ts';
import { NIS_BINARIES, nisPlan, nisRelays } from '../../../../test/helpers/nis-daemons.ts';
import { nsDaemon } from '../../../../test/helpers/ns-daemons.ts';
import { hostOf, netFor, service } from '../../../../test/helpers/web-daemons.ts';
import type { Service } from '../../engine/types.ts';
import { checkById } from '../catalogue.ts';
import { domainCandidates } from './nis-maps.ts';

const OPEN = '127.0.83.21';
const SHUT = '127.0.83.22';
const DOMAIN = 'vigil-nis.test';
const READY = process.getuid?.() === 0 && NIS_BINARIES.every((b) => which(b));

test('NIS maps are read when ypserv serves anyone; behind securenets nothing is reported', {
  skip: READY ? false : `needs root and ${NIS_BINARIES.join(', ')} (Debian nis, rpcbind, socat)`,
}, async () => {
  await Promise.all([
    nsDaemon('nis-open', (dir) => nisPlan(dir, DOMAIN, false), nisRelays(OPEN)),
    nsDaemon('nis-shut', (dir) => nisPlan(dir, DOMAIN, true), nisRelays(SHUT)),
  ]);
  // The domain is the one the host's mail server announces (mail.vigil-nis.test), as on real networks.
  const host = (addr: string) =>
    hostOf(addr, [service(111, 'rpcbind'), service(25, 'smtp', { banner: `220 mail.${DOMAIN} ESMTP Postfix` })]);
  assert.ok(domainCandidates(host(OPEN)).includes(DOMAIN));
  // Names come from any service's facts, not the SMTP banner alone: an HTTP redirect, an XMPP domain.
  const named = (extra: Partial<Service>) => domainCandidates(hostOf(OPEN, [service(80, 'http', extra)]));
  assert.ok(named({ extra: { xmppDomain: 'chat.nis-a.test' } }).includes('nis-a.test'));
  const redirect = { status: 302, headers: { location: 'https://intranet.nis-b.test/' }, body: '' };
  assert.ok(named({ http: redirect }).includes('nis-b.test'));

  const [found] = await checkById('vigil.nis.maps').runOn(host(OPEN), netFor(OPEN));
  assert.ok(found, 'the open ypserv is reported');
  assert.equal(found.port, 111);
  assert.equal(found.risk, 'high');
  assert.match(
    found.detail,
    /^ypserv \(program 100004 v2, udp\/834, found through the portmapper on 111\) serves domain "vigil-nis\.test"/,
  );
  assert.match(found.detail, /YPPROC_MAPLIST answered 2 maps: passwd\.by(name|uid), passwd\.by(name|uid)/);
  // The record came, with its hash masked: the proof, not the secret.
  assert.match(found.detail, /alice:\$6\$\[masked, \d+ chars\]:1001:1001:Alice:\/home\/alice:\/bin\/bash/);
  assert.doesNotMatch(found.detail, /vigiltest/);
  assert.match(found.detail, /carries password hashes/);

  assert.deepEqual(await checkById('vigil.nis.maps').runOn(host(SHUT), netFor(SHUT)), []);
});
