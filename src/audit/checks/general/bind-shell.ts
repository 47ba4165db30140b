import { defineCheck } from '../kit.ts';
import type { Service } from '../../engine/types.ts';
import { shown, talk } from '../../proto/talk.ts';

/**
 * A shell bound to a TCP port (`nc -l -e /bin/sh`, `socat …
 * EXEC:/bin/sh`, a backdoor left by an intruder or a forgotten debugging
 * session): whatever is sent runs as a command. The check sends one line,
 * `echo VIGIL$((6*7))SHELL`: only a shell expands the arithmetic, so
 * "VIGIL42SHELL" coming back proves commands run, while an echo service
 * returns the line unexpanded and anything else ignores it. It runs the
 * shell's own `echo` and nothing else, but it is a command run on the
 * target: intrusive, advanced audits only. Asked on ports detection left
 * unnamed, or whose greeting looks like a shell prompt.
 */
const LINE = 'echo VIGIL$((6*7))SHELL\n';
const PROOF = /VIGIL42SHELL/;
const prompt = (s: Service) => /^(\S+[@:]\S*\s?)?(sh|bash|dash|zsh|ash)?(-[\d.]+)?[$#>]\s*$/.test(s.banner ?? '');
const candidate = (s: Service) => s.name === 'unknown' || (s.name !== 'ssh' && prompt(s));

export default defineCheck({
  id: 'vigil.shell.bind',
  shortid: 'BIND-SHELL',
  title: 'Command shell bound to a TCP port',
  family: 'General',
  categories: ['intrusive', 'vuln', 'exploit'],
  risk: 'high',
  type: 'HOLE',
  qod: 99,
  description:
    'A command shell answers on this port without any authentication: anyone who connects runs commands as its user. It is either a backdoor left by an intruder or a debugging shortcut that was never removed.',
  solution:
    'Find the process holding the port (ss -ltnp) and stop it, remove what starts it (inetd, systemd units, cron, rc scripts), and treat the host as compromised unless the shell is known to be your own.',
  references: ['https://attack.mitre.org/techniques/T1059/'],
  ports: { where: candidate, max: 40 },
  run: async ({ net, port }) => {
    const reply = await talk(
      net,
      port,
      async (conv) => {
        await conv.read(300); // a prompt, if the shell prints one
        // Done at the proof, or at the line coming back unexpanded (an echo service).
        const done = (b: Buffer) => PROOF.test(b.toString('latin1')) || b.includes('$((6*7))');
        return (await conv.ask(LINE, 2000, done)).toString('latin1');
      },
      2500,
    );
    if (!reply || !PROOF.test(reply)) return null;
    return `The line "${LINE.trim()}" was answered "${shown(reply, 60)}": the arithmetic was expanded, so a shell runs what is sent.`;
  },
});
