/**
 * The git:// protocol (git daemon, port 9418; gitprotocol-pack(5)): the
 * client sends one pkt-line `git-<service> <path>\0host=<host>\0` and the
 * server answers with the service's reference advertisement, or one
 * pkt-line `ERR <message>` and closes (a service not enabled, a repository
 * not exported or missing). A flush-pkt (`0000`) from the client then
 * ends the exchange before anything is sent or changed: what `git
 * ls-remote` does, for receive-pack too.
 */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

/** One pkt-line: 4 hex digits of length (themselves included), then the payload. */
export const pktLine = (payload: string) => {
  const b = Buffer.from(payload, 'utf8');
  return Buffer.concat([Buffer.from((b.length + 4).toString(16).padStart(4, '0')), b]);
};

/** The request line git daemon reads first (daemon.c, execute()). */
export const gitRequest = (service: 'upload-pack' | 'receive-pack', path: string, host: string) =>
  pktLine(`git-${service} ${path}\0host=${host}\0`);

export interface GitAdvertisement {
  /** `<sha1> <ref>` of each advertised reference (an empty repository advertises `capabilities^{}`). */
  refs: string[];
  /** The capabilities after the first reference's NUL. */
  capabilities: string[];
}

/** pkt-lines of `b` up to the first flush-pkt; null until complete, or when `b` is not pkt-lines. */
export function readPktLines(b: Buffer): { lines: string[]; flushed: boolean } | null {
  const lines: string[] = [];
  let i = 0;
  while (i + 4 <= b.length) {
    const hex = b.subarray(i, i + 4).toString('latin1');
    if (!/^[0-9a-f]{4}$/.test(hex)) return null;
    const len = Number.parseInt(hex, 16);
    if (len === 0) return { lines, flushed: true };
    if (len < 4 || i + len > b.length) break;
    lines.push(
      b
        .subarray(i + 4, i + len)
        .toString('utf8')
        .replace(/\n$/, ''),
    );
    i += len;
  }
  return { lines, flushed: false };
}

const done = (b: Buffer) => {
  const r = readPktLines(b);
  return !r || r.flushed || r.lines.some((l) => l.startsWith('ERR '));
};

/** A service's advertisement for `path`, the server's ERR text, or null (no git daemon answered). */
export function gitAdvertise(
  net: Net,
  port: number,
  service: 'upload-pack' | 'receive-pack',
  path: string,
): Promise<GitAdvertisement | { error: string } | null> {
  return talk(net, port, async (c) => {
    const r = readPktLines(await c.ask(gitRequest(service, path, net.address), 3000, done));
    if (!r) return null;
    const err = r.lines.find((l) => l.startsWith('ERR '));
    if (err) return { error: err.slice(4) };
    if (!r.flushed || !r.lines.length) return null;
    c.send('0000'); // flush: nothing to send, the service ends here (pack-protocol, "Reference Discovery")
    const [first, ...rest] = r.lines;
    const [ref, caps = ''] = first!.split('\0');
    const refs = [ref!, ...rest].filter((l) => /^[0-9a-f]{40,64} \S/.test(l));
    return refs.length ? { refs, capabilities: caps.split(' ').filter(Boolean) } : null;
  });
}
