import { defineCheck } from '../kit.ts';
import { nbdList, nbdOpen } from '../../proto/nbd.ts';
import { shown } from '../../proto/talk.ts';

/**
 * An NBD export that anyone may open: NBD_OPT_GO, on a name the server
 * listed or on the default export (the empty name, qemu-nbd's and nbdkit's
 * default), answered with NBD_REP_INFO and NBD_REP_ACK, the transmission
 * phase where every block can be read and, unless read-only, written. The
 * connection is closed at once with NBD_CMD_DISC, before any read or write:
 * the first step of every NBD client, as iSCSI's login is
 * (vigil.iscsi.noauth), so safe. nbd-server answers NBD_OPT_INFO even for an
 * export whose `authfile` shuts us out (3.24, measured) and refuses only at
 * GO with NBD_REP_ERR_POLICY: GO is the proof. A refusal (POLICY,
 * TLS_REQD, UNKNOWN) is not reported, and export names are never guessed.
 */
const READ_ONLY = 1 << 1;

export default defineCheck({
  id: 'vigil.nbd.noauth',
  shortid: 'NBD-NOAUTH',
  title: 'NBD export open to anyone (no TLS, no access list)',
  family: 'General',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    'The Network Block Device server let a client that sent no credentials open an export: anyone who reaches the port can attach the disk, read every block and, unless it is read-only, overwrite it.',
  solution:
    'Require TLS with client certificates (nbd-server `force_tls` with `cacertfile`, qemu-nbd --tls-creds, nbdkit --tls=require --tls-verify-peer), list the clients each export serves (nbd-server `authfile`), export read-only what need not be written, and keep NBD on a storage network of its own.',
  references: ['https://github.com/NetworkBlockDevice/nbd/blob/master/doc/proto.md#nbd_opt_go-7'],
  ports: { services: ['nbd'], ports: [10809] },
  run: async ({ net, port }) => {
    const list = await nbdList(net, port);
    if (!list) return null;
    const names = 'names' in list ? list.names.slice(0, 5) : [];
    const opened: string[] = [];
    for (const name of [...new Set([...names, ''])]) {
      const o = await nbdOpen(net, port, name);
      if (!o?.export) continue;
      const mode = o.export.flags & READ_ONLY ? 'read-only' : 'writable';
      opened.push(`${name ? JSON.stringify(name) : 'the default export ("")'}: ${o.export.size} bytes, ${mode}`);
    }
    if (!opened.length) return null;
    return `NBD_OPT_GO (no TLS, no credentials) was answered with NBD_REP_INFO and NBD_REP_ACK, the transmission phase, on ${shown(opened.join('; '), 300)}; closed with NBD_CMD_DISC before any read or write.`;
  },
});
