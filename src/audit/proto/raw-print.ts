/**
 * Raw printing ports (HP JetDirect / AppSocket, TCP 9100-9107; p910nd,
 * print servers, network printers): no handshake, no authentication, and
 * every byte a client sends is handed to the printer, which is why nmap
 * leaves these ports out of version detection (nmap-service-probes:
 * `Exclude T:9100-9107`). Two ways to learn something without printing:
 * - PJL's status readback (HP PJL Technical Reference, INFO ID): the
 *   query wrapped in Universal Exit Language sequences, nmap's `hp-pjl`
 *   probe byte for byte; a PJL printer answers with its model and prints
 *   no page. A device without PJL gets these 34 bytes as data.
 * - a connection held with nothing sent: the port takes a job from this
 *   client (its TCP wrappers or ACL would have closed it at once), and an
 *   empty job prints nothing.
 */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

export const RAW_PRINT_PORTS: readonly number[] = [9100, 9101, 9102, 9103, 9104, 9105, 9106, 9107];

/** UEL, @PJL INFO ID, UEL: nmap's hp-pjl probe. */
export const PJL_INFO_ID = Buffer.from('\x1b%-12345X@PJL INFO ID\r\n\x1b%-12345X\r\n', 'latin1');

/**
 * The printer's identification in a PJL INFO ID answer (`@PJL INFO ID`,
 * then the model, quoted or not, as nmap's hp-pjl lines read it); '' when
 * the answer carries none; null when the bytes are not a PJL answer.
 */
export function pjlId(reply: Buffer): string | null {
  const t = reply.toString('latin1');
  const m = /^@PJL INFO ID ?\r?\n(?:"([^"\r\n]+)"|([\w .,/()+-]*))\r?\n/.exec(t);
  return m ? (m[1] ?? m[2] ?? '').trim() : null;
}
/** A PJL answer is complete at its form feed (PJL ends each INFO answer with one) or its second line. */
export const pjlDone = (b: Buffer) => b.includes(0x0c) || pjlId(b) !== null;

export type Hold = 'held' | 'closed' | 'data';

/**
 * Connects and sends nothing for `ms`: 'held' when the server kept the connection open in silence,
 * 'closed' when it ended it, 'data' when it said something first; null when no connection was made.
 */
export const holdSilent = (net: Net, port: number, ms = 1500): Promise<Hold | null> =>
  talk(
    net,
    port,
    async (conv) => {
      const said = await conv.read(ms);
      return said.length ? 'data' : conv.closed ? 'closed' : 'held';
    },
    ms + 500,
  );
