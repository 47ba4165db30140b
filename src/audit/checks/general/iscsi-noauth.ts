import { defineCheck } from '../kit.ts';
import { discover, normalLogin, targetNames } from '../../proto/iscsi.ts';

/**
 * An iSCSI target that accepts a normal session without credentials
 * (AuthMethod=None) for any initiator: whoever reaches it can attach its
 * disks and read or overwrite them. The target names come from a discovery
 * session (SendTargets=All); each login reaches full feature phase and the
 * connection is closed at once, before any SCSI command: the default login
 * of an unprotected target, as anonymous FTP is for FTP, so safe.
 */
export default defineCheck({
  id: 'vigil.iscsi.noauth',
  shortid: 'ISCSI-NOAUTH',
  title: 'iSCSI target accepts logins without authentication',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    'The iSCSI target let an initiator log in to a disk with no credentials (AuthMethod=None) and no access list stopping it: anyone who reaches the port can attach the disk, read everything on it and write to it.',
  solution:
    'Require CHAP (ideally mutual) on every target and bind each target to the initiator names or addresses that use it (tgtadm --op bind -I, targetcli acls); keep iSCSI on a storage network of its own.',
  references: ['https://www.rfc-editor.org/rfc/rfc7143#section-12'],
  ports: { services: ['iscsi'], ports: [3260] },
  run: async ({ net, port }) => {
    const d = await discover(net, port);
    const names = targetNames(d);
    const open: string[] = [];
    for (const name of names.slice(0, 5)) if ((await normalLogin(net, port, name))?.accepted) open.push(name);
    if (!open.length) return null;
    return `A normal session login with AuthMethod=None reached full feature phase (status 0/0) on ${open.join(', ')}; closed before any SCSI command.`;
  },
});
