/** Remote consoles that speak first: VNC (RFB banner), Telnet (IAC negotiation). */
import { printable } from '../../proto/conv.ts';
import { TELNET_OPTIONS } from '../../proto/telnet.ts';
import type { Family } from './family.ts';

export const vnc: Family = {
  id: 'vnc',
  ports: [5900, 5901, 5902, 5903],
  async banner(greeting, s) {
    const m = /^RFB (\d{3})\.(\d{3})\n/.exec(greeting.toString('latin1'));
    if (!m) return false;
    const version = `${Number(m[1])}.${Number(m[2])}`;
    Object.assign(s, { name: 'vnc', product: 'VNC', version });
    s.extra.protocol = `RFB ${version}`;
    return true;
  },
};

export const telnet: Family = {
  id: 'telnet',
  ports: [23, 2323],
  async banner(greeting, s) {
    if (greeting[0] !== 0xff || greeting.length < 3 || greeting[1]! < 0xfa) return false;
    const seen: string[] = [];
    const text: number[] = [];
    for (let i = 0; i < greeting.length; i++) {
      if (greeting[i] !== 0xff) {
        text.push(greeting[i]!);
        continue;
      }
      const cmd = greeting[i + 1]!;
      if (cmd >= 0xfb && cmd <= 0xfe) {
        const verb = ['WILL', 'WONT', 'DO', 'DONT'][cmd - 0xfb]!;
        seen.push(`${verb} ${TELNET_OPTIONS[greeting[i + 2]!] ?? greeting[i + 2]}`);
        i += 2;
      } else if (cmd === 0xfa) {
        const se = greeting.indexOf(Buffer.from([0xff, 0xf0]), i);
        i = se < 0 ? greeting.length : se + 1;
      } else i += 1;
    }
    Object.assign(s, { name: 'telnet' });
    s.extra.options = seen.slice(0, 40).join(', ');
    s.banner = printable(Buffer.from(text));
    return true;
  },
};
