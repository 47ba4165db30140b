import { defineCheck } from '../kit.ts';
import { talk } from '../../proto/talk.ts';

export default defineCheck({
  // No CVE: CVE-1999-0619 ("The Telnet service is running") is REJECTED in NVD, a configuration, not a flaw
  // (read 2026-11-23).
  id: 'vigil.telnet.open',
  shortid: 'TELNET',
  title: 'Telnet service open',
  family: 'Remote Access',
  categories: ['safe', 'discovery', 'default'],
  risk: 'medium',
  type: 'HOLE',
  description: 'Telnet sends logins and everything typed in clear text, readable by anyone on the path.',
  solution: 'Turn the telnet service off (inetd/systemd socket) and use SSH instead.',
  ports: { services: ['telnet'], ports: [23, 2323] },
  run: async ({ net, port, host }) => {
    if (host.services.find((s) => s.port === port)?.name === 'telnet') return `a Telnet server answers on port ${port}`;
    // IAC (255) followed by DO/DONT/WILL/WONT opens every Telnet negotiation.
    const greeting = await talk(net, port, (c) => c.read(2500, (b) => b.length >= 3));
    return greeting && greeting[0] === 255 && greeting[1]! >= 251 ? `Telnet option negotiation on port ${port}` : null;
  },
});
