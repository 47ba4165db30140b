import { defineCheck } from '../kit.ts';
import { shown } from '../../proto/talk.ts';
import { LOGIN_PROMPT, promptOf, telnetConsole } from '../../proto/telnet.ts';

/**
 * A Telnet server that hands out a shell with no login at all (BusyBox
 * `telnetd -l /bin/sh`, inetutils `telnetd -E /bin/sh`, the debug telnet of
 * routers, cameras and IoT boards). The proof runs no command: after the
 * option negotiation the server printed no login or password prompt and
 * ended on a shell prompt, and one empty line (a shell runs nothing for it)
 * brought the same prompt back, again with no login prompt. A login prompt
 * anywhere (telnetd with /bin/login: vigil.telnet.open's case alone), a
 * prompt that changes, or silence is not reported.
 */
export default defineCheck({
  id: 'vigil.telnet.no-login',
  shortid: 'TELNET-NOLOGIN',
  title: 'Telnet gives a shell without any login',
  family: 'Remote Access',
  categories: ['safe', 'auth', 'default'],
  risk: 'high',
  type: 'HOLE',
  description:
    'The Telnet server starts a command shell for whoever connects, with no user name or password asked: anyone who reaches the port runs commands as the account the shell runs as, often root on embedded devices.',
  solution:
    'Turn the Telnet service off; where a console is needed use SSH (dropbear on small devices). If telnetd must stay, run it with the login program (BusyBox telnetd -l /bin/login, inetutils telnetd without --exec-login) and firewall it from untrusted networks.',
  references: ['https://www.rfc-editor.org/rfc/rfc854', 'https://attack.mitre.org/techniques/T1078/001/'],
  ports: { services: ['telnet'], ports: [23, 2323] },
  run: async ({ net, port }) => {
    const t = await telnetConsole(net, port);
    if (!t?.after || LOGIN_PROMPT.test(t.before) || LOGIN_PROMPT.test(t.after)) return null;
    const first = promptOf(t.before);
    // The empty line's answer is that prompt alone (twice when a pty turned CR LF into two newlines).
    const again = t.after.replace(/\s+/g, ' ').trim();
    if (!first || !again || again.split(first).some((x) => x.trim())) return null;
    const opening = t.negotiated.length
      ? `After the option negotiation (the server asked ${t.negotiated.slice(0, 8).join(', ')}; we accepted ECHO and SGA only)`
      : 'With no option negotiation';
    return `${opening} the server printed "${shown(t.before, 120)}" with no login or password prompt, and answered one empty line with the same shell prompt "${first}": a shell without login.`;
  },
});
