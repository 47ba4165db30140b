/**
 * The svn:// protocol (svnserve, port 3690; subversion/libsvn_ra_svn/protocol):
 * S-expressions of words, numbers, `len:bytes` strings and `( … )` lists.
 * The server greets with `( success ( minver maxver ( mechs ) ( caps ) ) )`;
 * the client answers with its version, capabilities and the repository
 * URL; the server offers the auth mechanisms the anonymous user may use
 * (ANONYMOUS only where anon-access is read or write), then, once
 * authenticated, the repository's UUID and root URL.
 */
import type { Conv } from './conv.ts';
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

export type SvnItem = string | SvnItem[];

/**
 * Complete top-level items of `b` (words, numbers and strings as text,
 * lists as arrays); `rest` is where an incomplete item starts. Null when
 * `b` does not follow the grammar.
 */
export function svnItems(b: Buffer): { items: SvnItem[]; rest: number } | null {
  const items: SvnItem[] = [];
  const stack: SvnItem[][] = [];
  let i = 0;
  let rest = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c === 0x20 || c === 0x0a) {
      i++;
      continue;
    }
    if (c === 0x28) {
      stack.push([]);
      i++;
    } else if (c === 0x29) {
      const list = stack.pop();
      if (!list) return null;
      i++;
      if (stack.length) stack[stack.length - 1]!.push(list);
      else {
        items.push(list);
        rest = i;
      }
    } else {
      const m = /^(\d+)(:?)|^([A-Za-z][\w-]*)/.exec(b.subarray(i, i + 24).toString('latin1'));
      if (!m) return null;
      let item: string;
      if (m[2]) {
        const start = i + m[1]!.length + 1;
        const end = start + Number(m[1]);
        if (end > b.length) break;
        item = b.subarray(start, end).toString('utf8');
        i = end;
      } else {
        if (i + m[0].length >= b.length) break; // a word or number may go on in the next read
        item = m[0];
        i += m[0].length;
      }
      if (stack.length) stack[stack.length - 1]!.push(item);
      else {
        items.push(item);
        rest = i;
      }
    }
  }
  return { items, rest };
}

const str = (s: string) => `${Buffer.byteLength(s)}:${s} `;

/** Reads until `n` complete top-level items have come since the last take(). */
const itemsDone = (n: number) => (b: Buffer) => (svnItems(b)?.items.length ?? n) >= n;

const list = (v: SvnItem | undefined): SvnItem[] => (Array.isArray(v) ? v : []);

export interface SvnSession {
  /** The greeting's capability words. */
  capabilities: string[];
  url: string;
  /** Mechanisms offered to this client (ANONYMOUS when anonymous access is allowed). */
  mechanisms: string[];
  realm: string;
  /** The repository's UUID and root URL, once the anonymous session is open; null otherwise. */
  uuid: string | null;
  root: string | null;
  /** The server's failure text when the URL names no repository. */
  failure: string | null;
}

/**
 * Greeting, client response for `svn://<address>/<path>`, ANONYMOUS auth
 * when offered; `next` runs on the open session (e.g. the commit probe).
 */
export function svnSession<T>(
  net: Net,
  port: number,
  path: string,
  next?: (c: Conv) => Promise<T | null>,
): Promise<{ session: SvnSession; result: T | null } | null> {
  return talk(net, port, async (c) => {
    const greet = svnItems(await c.read(3000, itemsDone(1)))?.items[0];
    const body = list(list(greet)[1]);
    if (list(greet)[0] !== 'success' || body.length < 4) return null;
    const host = net.address.includes(':') ? `[${net.address}]` : net.address;
    const url = `svn://${host}:${port}/${path}`;
    const session: SvnSession = {
      capabilities: list(body[3]).map(String),
      url,
      mechanisms: [],
      realm: '',
      uuid: null,
      root: null,
      failure: null,
    };
    c.take();
    const caps = '( edit-pipeline svndiff1 absent-entries depth mergeinfo log-revprops )';
    const auth = svnItems(await c.ask(`( 2 ${caps} ${str(url)}${str('vigil-audit')}( ) ) `, 3000, itemsDone(1)))
      ?.items[0];
    if (list(auth)[0] === 'failure') {
      session.failure = String(list(list(list(auth)[1])[0])[1] ?? 'failure');
      return { session, result: null };
    }
    const offer = list(list(auth)[1]);
    session.mechanisms = list(offer[0]).map(String);
    session.realm = String(offer[1] ?? '');
    if (!session.mechanisms.includes('ANONYMOUS')) return { session, result: null };
    // The anonymous "token" is free text (RFC 4505 trace information).
    const r = svnItems(await c.ask(`( ANONYMOUS ( ${str('vigil-audit')}) ) `, 3000, itemsDone(2)))?.items ?? [];
    if (list(r[0])[0] !== 'success' || list(r[1])[0] !== 'success') return { session, result: null };
    const info = list(list(r[1])[1]);
    session.uuid = typeof info[0] === 'string' ? info[0] : null;
    session.root = typeof info[1] === 'string' ? info[1] : null;
    return { session, result: next ? await next(c) : null };
  });
}

/**
 * `commit` on the anonymous session, then `abort-edit` at once: svnserve
 * checks write access when the command arrives (serve.c, commit() →
 * must_have_access) and answers an empty auth request `( success ( ( ) 0:
 * ) )` and success when the anonymous user may write; a server that wants
 * a login offers mechanisms instead, or fails. The transaction is only
 * created by the editor's open-root, which is never sent, so nothing is
 * written. Returns the raw answer text and whether it granted the commit.
 */
export async function svnCommitProbe(c: Conv): Promise<{ granted: boolean; answer: string }> {
  // Done at two items, or at one that is not the empty auth request (a challenge or a failure: refused).
  const answered = (b: Buffer) => {
    const items = svnItems(b)?.items;
    if (!items) return true;
    const first = list(items[0]);
    return items.length >= 2 || (items.length === 1 && !(first[0] === 'success' && !list(list(first[1])[0]).length));
  };
  const r = await c.ask(`( commit ( ${str('vigil-audit: write access probe, aborted')}) ) `, 3000, answered);
  const items = svnItems(r)?.items ?? [];
  const authReq = list(items[0]);
  const granted =
    authReq[0] === 'success' &&
    list(list(authReq[1])[0]).length === 0 &&
    list(items[1])[0] === 'success' &&
    items.length >= 2;
  c.send('( abort-edit ( ) ) ');
  if (granted) await c.read(1000, itemsDone(3));
  return { granted, answer: r.toString('latin1').trim().slice(0, 120) };
}
