/**
 * X11 (X Window System Protocol, ch. 8 "Connection Setup"): a setup request
 * with no authorization is answered Failed (0), Success (1) or Authenticate
 * (2), then protocol 11.0. nmap's database has no line for Xorg/Xvfb's
 * refusal ("Authorization required, but no authorization protocol
 * specified": nmap 7.93 left it unrecognized after 39 s), so our own.
 */
import type { Family } from './family.ts';

export const X11_SETUP = Buffer.from([0x6c, 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

export const x11: Family = {
  id: 'x11',
  ports: Array.from({ length: 64 }, (_, i) => 6000 + i),
  async probe(conv, s) {
    const r = await conv.ask(X11_SETUP, 1500, (b) => b.length >= 8);
    if (r.length < 8 || r[0]! > 2 || r.readUInt16LE(2) !== 11) return false;
    Object.assign(s, { name: 'X11', product: null });
    s.extra.x11 = r[0] === 1 ? 'open' : r[0] === 2 ? 'authenticate' : 'refused';
    if (r[0] === 0 && r[1]! > 0)
      s.extra.reason = r
        .subarray(8, 8 + r[1]!)
        .toString('latin1')
        .replace(/[^\x20-\x7e]+/g, ' ')
        .trim();
    if (r[0] === 1 && r.length >= 40)
      s.product = r
        .subarray(40, 40 + r.readUInt16LE(24))
        .toString('latin1')
        .replace(/[^\x20-\x7e]+/g, '');
    return true;
  },
};
