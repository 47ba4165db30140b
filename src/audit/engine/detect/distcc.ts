/**
 * distccd: silent until a job arrives, and it waits for the rest of a
 * token (distcc's 300 s I/O timeout) when a probe sends fewer bytes than
 * one, so other families' probes cost it their whole read. On distcc's
 * port the probe is tried first: the compile of an empty source nmap's -sV
 * sends (its DistCCD probe), answered DONE/STAT/SERR/SOUT/DOTO by a
 * distccd that admits the client; the object file's note names the
 * compiler. A distccd that refuses the client closes without a byte and
 * is left to the other probes.
 */
import { distccRequest, parseDistccReply } from '../../proto/distcc.ts';
import type { Family } from './family.ts';

const DISTCC_PORTS = [3632];

export const distcc: Family = {
  id: 'distcc',
  ports: DISTCC_PORTS,
  only: true,
  async probe(conv, s) {
    const job = distccRequest(['cc', '-c', 'vigil-detect.c', '-o', 'vigil-detect.o']);
    const r = parseDistccReply(await conv.ask(job, 3000, (b) => parseDistccReply(b) !== null));
    if (!r) return false;
    Object.assign(s, { name: 'distccd', product: 'distccd', version: null });
    if (r.compiler) s.extra.compiler = r.compiler;
    return true;
  },
};
