/**
 * iSCSI (RFC 7143) on its ports (3260, and 860 of the RFC's system ports):
 * silent until an initiator logs in, and nmap's database names only one
 * Windows product by a banner. A discovery login (AuthMethod=None, no SCSI
 * command) answered by a Login Response names it, accepted or refused.
 */
import { loginResponse } from '../../proto/iscsi.ts';
import type { Family } from './family.ts';

const PORTS = [3260, 860];

export const iscsi: Family = {
  id: 'iscsi',
  ports: PORTS,
  only: true,
  async probe(conv, s) {
    const r = await loginResponse(conv);
    if (!r) return false;
    Object.assign(s, { name: 'iscsi', product: null });
    s.extra.iscsiLogin = `status ${r.status.join('/')}${r.accepted ? ', discovery without credentials' : ''}`;
    return true;
  },
};
