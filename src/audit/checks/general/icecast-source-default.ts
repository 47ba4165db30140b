import { randomBytes } from 'node:crypto';
import { defineCheck } from '../kit.ts';
import type { Service } from '../../engine/types.ts';
import { usesTls } from '../../proto/http.ts';
import { sourceLogin } from '../../proto/icecast.ts';

/** Icecast names itself in its Server header ("Icecast 2.4.4") and nmap's database names it so. */
const isIcecast = (s: Service) => /icecast/i.test(`${s.http?.headers['server'] ?? ''} ${s.product ?? ''}`);

/**
 * The source password Icecast ships (icecast.xml: <source-password>hackme</source-password>, user
 * "source"): a source client that has it replaces or adds a stream of the station. The proof is by
 * contrast, on a mount of a random name: the shipped pair is accepted (200 or 100 Continue) where a
 * random password for the same user is refused (401), and the connection is closed before any audio,
 * so the mount exists only for that moment. `intrusive`: a login that (briefly) opens a mount.
 */
export default defineCheck({
  id: 'vigil.icecast.source-default',
  shortid: 'ICECAST-SOURCE',
  title: 'Icecast accepts the shipped source password',
  family: 'General',
  categories: ['intrusive', 'auth'],
  risk: 'high',
  type: 'HOLE',
  description:
    'The Icecast streaming server accepts source clients with the password its sample configuration ships ("hackme"): anyone can publish a stream on it, replace a live station\u2019s stream by taking over its mount, or fill it with mounts.',
  solution:
    'Set your own <source-password> (and per-mount passwords) in icecast.xml, change <admin-password> and <relay-password> likewise, and restart Icecast.',
  references: ['https://icecast.org/docs/icecast-2.4.1/config-file.html#authentication'],
  ports: { where: isIcecast, ports: [8000] },
  run: async ({ net, port, service }) => {
    const tls = !!service && usesTls(service);
    const mount = `/vigil-${randomBytes(5).toString('hex')}`;
    const shipped = await sourceLogin(net, port, tls, mount, 'source', 'hackme');
    if (!shipped || !/^HTTP\/\d\.\d (200|100)\b/.test(shipped)) return null;
    const control = await sourceLogin(net, port, tls, mount, 'source', `vigil-${randomBytes(9).toString('base64url')}`);
    if (!control || !/^HTTP\/\d\.\d 401\b/.test(control)) return null;
    return `PUT ${mount} (a source client, user "source", password "hackme" from Icecast's shipped icecast.xml) was answered "${shipped}", while a random password got "${control}": the shipped source password is accepted (the connection was closed before any audio).`;
  },
});
