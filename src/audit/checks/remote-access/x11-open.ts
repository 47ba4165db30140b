import { defineCheck } from '../kit.ts';
import { shown, talk } from '../../proto/talk.ts';

/**
 * X11 connection setup (X Window System Protocol, ch. 8): byte order 'l'
 * (little-endian), protocol 11.0, no authorization name or data. The first
 * reply byte is 0 Failed, 1 Success, 2 Authenticate; Success means any
 * client may read the screen and inject keystrokes (xhost +, Xvfb -ac).
 */
const X11_SETUP = Buffer.from([0x6c, 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0]);

export default defineCheck({
  id: 'vigil.x11.open',
  shortid: 'X11-OPEN',
  title: 'X11 display server accepts any client',
  family: 'Remote Access',
  categories: ['safe', 'desktop', 'auth', 'default'],
  risk: 'high',
  cves: ['CVE-1999-0526'],
  type: 'HOLE',
  qod: 99,
  description:
    'The X server accepted a connection without any authorization (access control disabled, as with "xhost +" or -ac): anyone who reaches it can watch the screen, log keystrokes and type commands into open terminals.',
  solution: 'Enable access control (xauth cookies), start X with -nolisten tcp, and tunnel X over SSH.',
  ports: { services: ['X11', 'x11'], ports: [6000, 6001, 6002, 6003, 6004, 6005] },
  run: ({ net, port }) =>
    talk(net, port, async (c) => {
      // Success: 8-byte header then the rest (length in 4-byte units at offset 6); vendor length at 24, vendor at 40.
      const r = await c.ask(X11_SETUP, 3000, (b) => b.length >= 8 && b.length >= 8 + 4 * b.readUInt16LE(6));
      if (r.length < 40 || r[0] !== 1 || r.readUInt16LE(2) !== 11) return null;
      const vendor = r.subarray(40, 40 + r.readUInt16LE(24)).toString('latin1');
      return `X11 connection setup without authorization succeeded (protocol 11.${r.readUInt16LE(4)}, vendor "${shown(vendor, 60)}")`;
    }),
});
