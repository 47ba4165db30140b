/**
 * The three admin-page checks (web/admin-open.ts, vendor-default-login.ts,
 * default-credentials.ts) on one port as an audit runs them: detection
 * first, then the three at once on one Net (they share its asker).
 */
import { detectOne } from '../../src/audit/engine/detect.ts';
import type { Finding, Net } from '../../src/audit/engine/types.ts';
import { checkById } from '../../src/audit/checks/catalogue.ts';
import { hostOf, netFor } from './web-daemons.ts';

export const LOGIN_IDS = ['vigil.web.admin-open', 'vigil.web.vendor-default-login', 'vigil.web.default-credentials'];

/** Each check's findings by id. */
export async function auditLogins(address: string, port: number, net: Net = netFor(address)) {
  const svc = await detectOne(net, port, { nmapProbes: false });
  const host = hostOf(address, [svc]);
  const out = await Promise.all(LOGIN_IDS.map((id) => checkById(id).runOn(host, net)));
  return Object.fromEntries(LOGIN_IDS.map((id, i) => [id, out[i]!])) as Record<string, Finding[]>;
}
