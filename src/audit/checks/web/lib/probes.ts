import type { Net, Service } from '../../../engine/types.ts';
import { type HttpAnswer, httpRequest, usesTls } from '../../../proto/http.ts';
import { relayConnect, relayGet, withCanary } from '../../../proto/proxy.ts';

/** What the active web checks share: a GET through proto/http.ts, and the open-proxy probe. */
export const get = (net: Net, svc: Service, path: string) => httpRequest(net, svc.port, usesTls(svc), { target: path });
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
