/**
 * File, media and device sharing services nmap's database names only by a
 * greeting or not at all:
 * - MPD's protocol greets `OK MPD <protocol version>` (MPD, Mopidy-MPD);
 * - saned (SANE, 6566) answers SANE_NET_INIT with a status and a version
 *   code when its host list admits us (saned 1.2 closes on a client it
 *   refuses without a word: nothing to name it by);
 * - raw printing ports (JetDirect/AppSocket, 9100-9107), where every byte
 *   sent may be printed: nmap leaves them out of version detection
 *   (`Exclude T:9100-9107`), and here the first probe there is PJL's
 *   status query (nmap's hp-pjl, proto/raw-print.ts), which a PJL printer
 *   answers without printing. Answered as PJL, or met with silence: the
 *   port is named `jetdirect` and nothing more is sent to it (before, the
 *   HTTP, TLS, Redis … probes all went to the printer). Any other answer
 *   (node_exporter's HTTP 400 on 9100, a TLS alert) or a closed
 *   connection, and the usual probes follow.
 * Each probe runs on its usual ports only (the connection is dropped at
 * once elsewhere), as detect/ops.ts's do.
 */
import { MPD_GREETING } from '../../proto/mpd.ts';
import { PJL_INFO_ID, pjlDone, pjlId, RAW_PRINT_PORTS } from '../../proto/raw-print.ts';
import { initRequest, parseInit, SANE_PORT } from '../../proto/sane.ts';
import type { Family } from './family.ts';

export const mpd: Family = {
  id: 'mpd',
  async banner(greeting, s) {
    const m = MPD_GREETING.exec(greeting.toString('latin1'));
    if (!m) return false;
    // The protocol version, not the product's (Mopidy-MPD greets with the protocol it implements).
    Object.assign(s, { name: 'mpd', product: 'MPD protocol server' });
    s.extra.mpdProtocol = m[1]!;
    return true;
  },
};

export const sane: Family = {
  id: 'sane',
  ports: [SANE_PORT],
  only: true,
  async probe(conv, s) {
    const init = parseInit(await conv.ask(initRequest('vigil'), 2000, (b) => b.length >= 8));
    if (!init) return false;
    Object.assign(s, { name: 'sane-port', product: 'SANE network daemon' });
    s.extra.saneInit = `SANE_NET_INIT answered ${init.statusName}${init.version ? `, version code ${init.version}` : ''}`;
    return true;
  },
};

export const jetdirect: Family = {
  id: 'jetdirect',
  ports: RAW_PRINT_PORTS,
  only: true,
  async probe(conv, s) {
    const reply = await conv.ask(PJL_INFO_ID, 2000, pjlDone);
    const id = pjlId(reply);
    if (id === null && (reply.length || conv.closed)) return false;
    Object.assign(s, { name: 'jetdirect', product: id || null });
    if (id !== null) s.extra.pjlId = id;
    else s.extra.rawPrint = 'silent to a PJL status query (UEL @PJL INFO ID UEL)';
    return true;
  },
};
