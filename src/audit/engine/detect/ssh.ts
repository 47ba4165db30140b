/** SSH: the identification line, then the server's KEXINIT algorithm lists. */
import { parseKexinit } from '../../proto/ssh.ts';
import type { Family } from './family.ts';

const PRODUCTS: [RegExp, string][] = [
  [/^OpenSSH/i, 'OpenSSH'],
  [/^dropbear/i, 'Dropbear sshd'],
  [/^libssh/i, 'libssh'],
  [/^Cisco/i, 'Cisco SSH'],
];

/** 'SSH-2.0-OpenSSH_9.2p1 Debian-2' → product OpenSSH, version 9.2p1, comment. */
export function parseSshIdent(
  line: string,
): { proto: string; product: string; version: string | null; comment: string | null } | null {
  const m = /^SSH-(\d+\.\d+)-(\S+)(?:\s+(.*))?$/.exec(line.trim());
  if (!m) return null;
  const soft = m[2]!;
  const sep = /[_-]/.exec(soft);
  const name = sep ? soft.slice(0, sep.index) : soft;
  const version = sep ? soft.slice(sep.index + 1) || null : null;
  const product = PRODUCTS.find(([re]) => re.test(soft))?.[1] ?? name;
  return { proto: m[1]!, product, version, comment: m[3]?.trim() || null };
}

export const ssh: Family = {
  id: 'ssh',
  ports: [22, 2222],
  async banner(greeting, s, conv) {
    const line = greeting
      .toString('latin1')
      .split(/\r?\n/)
      .find((l) => l.startsWith('SSH-'));
    const id = line ? parseSshIdent(line) : null;
    if (!id) return false;
    Object.assign(s, { name: 'ssh', product: id.product, version: id.version });
    s.extra.protocol = id.proto;
    if (id.comment) s.extra.comment = id.comment;
    // KEXINIT follows the version exchange: send ours, read theirs.
    conv.take();
    const rest = greeting
      .subarray(greeting.indexOf(line!) + line!.length)
      .toString('latin1')
      .replace(/^\r?\n/, '');
    conv.send('SSH-2.0-Vigil_Audit\r\n');
    const b = Buffer.concat([
      Buffer.from(rest, 'latin1'),
      await conv.read(1500, (x) => x.length >= 4 && x.length >= x.readUInt32BE(0) + 4),
    ]);
    const kex = parseKexinit(b);
    if (kex) Object.assign(s.extra, kex);
    return true;
  },
};
