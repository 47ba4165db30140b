/**
 * HAProxy's runtime API: the CLI of a `stats socket` (management.txt,
 * "Unix Socket commands"), and the master CLI of `haproxy -W -S`. The
 * socket has no authentication of its own: its `level` (user, operator,
 * admin) is what a client may do. Without `prompt` the CLI answers one
 * command line and closes the connection, so each command here has a
 * connection of its own. Sent: `show info`, `show cli level` (HAProxy
 * 2.0+), `help` and, for the master CLI, `show proc`: reads.
 */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

/**
 * One command line, the answer up to the close. The command is followed by our end of the stream, as
 * `socat` sends it: the worker CLI closes after one command anyway, but the master CLI (2.6, measured)
 * waits for more input until its timeout unless it sees the end.
 */
export function haproxyCommand(net: Net, port: number, command: string): Promise<string | null> {
  return talk(net, port, async (c) => {
    c.socket.end(`${command}\n`);
    const b = await c.read(3000, () => false);
    return b.length ? b.toString('latin1') : null;
  });
}

/**
 * The CLI's answer to a command it does not know: "Unknown command, but maybe one of the following ones is a
 * better match:" and the closest commands (2.6, measured; later versions quote the command), or "Unknown
 * command. Please enter one of the following commands only :" and the whole list (1.x).
 */
export const HAPROXY_UNKNOWN =
  /^Unknown command(?:: '[^'\n]*')?(?:, but maybe one of the following ones is a better match| ?\. Please enter one of the following commands only)/;

/** Commands only the admin level lists in `help` (management.txt: "admin" level commands). */
const ADMIN_COMMANDS =
  /^ +((?:disable|enable) server|set server|shutdown sessions?|add server|del server|set map|add acl|set weight)\b.*$/m;

export interface HaproxyRuntime {
  /** worker: a `stats socket`; master: the master CLI (-S). */
  kind: 'worker' | 'master';
  version: string | null;
  /** `show info`'s Name/Version/Pid lines, or the `show proc` header and master line. */
  evidence: string[];
  /** admin, operator or user, from `show cli level`; else from the commands `help` lists; null if unknown. */
  level: string | null;
  /** How the level was learnt, quoted in a finding. */
  levelEvidence: string | null;
}

function levelFromHelp(help: string | null): { level: string; evidence: string } | null {
  // 2.x heads its list so; 1.x answered `help` with its unknown-command text and the whole list.
  if (!help || !(/^The following commands are valid at this level:/m.test(help) || HAPROXY_UNKNOWN.test(help)))
    return null;
  const admin = ADMIN_COMMANDS.exec(help);
  if (admin) return { level: 'admin', evidence: `"help" lists "${admin[0].trim().replace(/\s{2,}/g, ' ')}"` };
  return null;
}

/** What the runtime API on `port` answers; null when it is not HAProxy's CLI. */
export async function haproxyRuntime(net: Net, port: number): Promise<HaproxyRuntime | null> {
  const info = await haproxyCommand(net, port, 'show info');
  let out: HaproxyRuntime;
  if (info && /^Name: HAProxy\s*$/m.test(info)) {
    const lines = info.split('\n').filter((l) => /^(Name|Version|Pid|Uptime|Node):/.test(l));
    out = {
      kind: 'worker',
      version: /^Version: (\S+)/m.exec(info)?.[1] ?? null,
      evidence: lines.slice(0, 5),
      level: null,
      levelEvidence: null,
    };
  } else {
    // The master CLI knows no `show info` (it relays it to a worker with `@1`): its own `show proc` lists the processes.
    const proc = await haproxyCommand(net, port, 'show proc');
    const master = proc ? /^\d+\s+master\s+.*$/m.exec(proc) : null;
    if (!proc || !/^#<PID>\s+<type>/.test(proc) || !master) return null;
    out = {
      kind: 'master',
      version: /(\d+\.\d+\.\d+\S*)\s*$/.exec(master[0])?.[1] ?? null,
      evidence: [proc.split('\n', 1)[0]!.replace(/\s{2,}/g, ' '), master[0].replace(/\s{2,}/g, ' ')],
      level: null,
      levelEvidence: null,
    };
  }
  const level = await haproxyCommand(net, port, 'show cli level');
  const m = level ? /^(admin|operator|user)\n/.exec(level) : null;
  if (m) {
    out.level = m[1]!;
    out.levelEvidence = `"show cli level" answered "${m[1]}"`;
    return out;
  }
  const fromHelp = levelFromHelp(await haproxyCommand(net, port, 'help'));
  if (fromHelp) Object.assign(out, { level: fromHelp.level, levelEvidence: fromHelp.evidence });
  return out;
}
