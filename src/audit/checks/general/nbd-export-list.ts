import { defineCheck } from '../kit.ts';
import { nbdList } from '../../proto/nbd.ts';
import { shown } from '../../proto/talk.ts';

/**
 * An NBD server (nbd-server, qemu-nbd, nbdkit: the newstyle negotiation they
 * share) that answers NBD_OPT_LIST with its export names to a client that
 * has not authenticated: the block devices it serves, by name, the first
 * thing an attacker needs to open one. A refusal (nbd-server's default
 * `allowlist = false` answers NBD_REP_ERR_POLICY; TLS-only servers
 * NBD_REP_ERR_TLS_REQD) or an empty list is not reported. A read of the
 * option list only, as iSCSI's SendTargets is (vigil.iscsi.discovery): safe.
 */
export default defineCheck({
  id: 'vigil.nbd.export-list',
  shortid: 'NBD-LIST',
  title: 'NBD server lists its block device exports to anyone',
  family: 'General',
  categories: ['safe', 'discovery', 'default'],
  risk: 'medium',
  type: 'NOTE',
  description:
    'The Network Block Device server answered NBD_OPT_LIST without TLS or credentials and named the disks it exports: the names an attacker needs to attach them, and a storage protocol reachable from where it should not be.',
  solution:
    'Turn export listing off (nbd-server: `allowlist = false`, the default), require TLS with client certificates (nbd-server `force_tls`, qemu-nbd --tls-creds, nbdkit --tls=require), restrict each export to its clients (nbd-server `authfile`) and keep NBD on a storage network of its own.',
  references: ['https://github.com/NetworkBlockDevice/nbd/blob/master/doc/proto.md#nbd_opt_list-3'],
  ports: { services: ['nbd'], ports: [10809] },
  run: async ({ net, port }) => {
    const list = await nbdList(net, port);
    if (!list || !('names' in list) || !list.names.length) return null;
    const names = list.names.map((n) => JSON.stringify(n)).join(', ');
    return `NBD_OPT_LIST (sent after the fixed newstyle handshake, no TLS) was answered with ${list.names.length} export(s) and NBD_REP_ACK: ${shown(names, 240)}.`;
  },
});
