import { defineCheck } from '../kit.ts';
import { discover, targetNames } from '../../proto/iscsi.ts';
import { shown } from '../../proto/talk.ts';

/**
 * An iSCSI target (RFC 7143) that lets anyone open a discovery session
 * without credentials and answers SendTargets=All with its targets: the
 * names of the disks it exports and where. A login refused, or a list that
 * is empty (targets hidden from this initiator by an access list), is not
 * reported. The discovery session is a read (the protocol's own first step
 * for every initiator, no SCSI command): safe.
 */
export default defineCheck({
  id: 'vigil.iscsi.discovery',
  shortid: 'ISCSI-DISCOVERY',
  title: 'iSCSI target lists its disks to anyone (SendTargets without authentication)',
  family: 'General',
  categories: ['safe', 'discovery', 'default'],
  risk: 'medium',
  type: 'NOTE',
  description:
    'The iSCSI target accepted a discovery session without credentials and listed the targets (disks) it exports: the names an attacker needs to try logging in to them, and a storage network reachable from where it should not be.',
  solution:
    'Require CHAP for discovery sessions as well as for targets, restrict each target to its initiators (initiator-name or address access lists), and keep iSCSI on a storage network of its own.',
  references: ['https://www.rfc-editor.org/rfc/rfc7143#appendix-C'],
  ports: { services: ['iscsi'], ports: [3260] },
  run: async ({ net, port }) => {
    const d = await discover(net, port);
    const names = targetNames(d);
    if (!d || !names.length) return null;
    const listed = d.targets!.map(([k, v]) => `${k}=${v}`).join(', ');
    return `A discovery login with AuthMethod=None was accepted (status ${d.login.status.join('/')}) and SendTargets=All listed ${names.length} target(s): ${shown(listed, 240)}.`;
  },
});
