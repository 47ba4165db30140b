import { randomBytes } from 'node:crypto';
import type { Net, Service } from '../../../engine/types.ts';
import { type HttpAnswer, httpRequest, usesTls } from '../../../proto/http.ts';
import { relayConnect, relayGet, withCanary } from '../../../proto/proxy.ts';
import { twinOf } from './content.ts';

/** What the active web checks share: a GET through proto/http.ts, and the open-proxy probe. */
export const get = (net: Net, svc: Service, path: string) => httpRequest(net, svc.port, usesTls(svc), { target: path });

/**
 * GET `path`, and the answer only if it is the file `proof` describes and
 * not what the server says for any path: some servers answer 200 with one
 * page for every path (single-page apps, `try_files {path} /index.html`,
 * Supervisor's web server), so a path that cannot exist, of the same shape
 * in the same directory, is asked too, and a hit counts only if that
 * answer neither passes `proof` nor carries the same body.
 */
export async function provenGet(
  net: Net,
  svc: Service,
  path: string,
  proof: (a: HttpAnswer) => boolean,
): Promise<HttpAnswer | null> {
  const a = await get(net, svc, path);
  if (a?.status !== 200 || !proof(a)) return null;
  const twin = `${path.slice(0, path.lastIndexOf('/'))}${twinOf(path, randomBytes(6).toString('hex'))}`;
  const b = await get(net, svc, twin);
  if (!b) return null; // no answer to the control: nothing proven
  return b.status === 200 && (proof(b) || squash(b.body) === squash(a.body)) ? null : a;
}
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
export const notHtml = (a: HttpAnswer) => !/<html|<!doctype/i.test(a.body.slice(0, 512));
export const first = (s: string) => s.split(/\r?\n/)[0]!.slice(0, 80);

/** Mask values in quoted secrets: the report must not carry them. */
export const maskEnv = (body: string) =>
  body
    .split(/\r?\n/)
    .filter((l) => /^[A-Z_][A-Z0-9_]*=/.test(l))
    .slice(0, 5)
    .map((l) => `${l.split('=')[0]}=…`)
    .join(', ');

/**
 * Open proxy, proven by relay only (proto/proxy.ts): the target is asked,
 * as a forward proxy (absolute-form GET, then CONNECT), for a unique path
 * on a listener of the scanner's own; a finding needs that listener's
 * secret answer back through the target. A server answering CONNECT or an
 * absolute URI with its own page relays nothing and is not reported.
 */
export async function proxyProbe(net: Net, svc: Service): Promise<string | null> {
  const tls = usesTls(svc);
  const relay = await withCanary(
    net,
    svc.port,
    async (c) => (await relayGet(net, svc.port, tls, c)) ?? (await relayConnect(net, svc.port, tls, c)),
  );
  if (!relay) return null;
  return `Sent to port ${svc.port}: ${relay.sent} (a listener of the scanner's own). The listener was asked for that path by ${relay.from}, and its unique answer came back through port ${svc.port} (HTTP ${relay.status}): the server relays requests for other hosts.`;
}
