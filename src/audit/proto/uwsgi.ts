/**
 * The uwsgi protocol (uWSGI's native wire protocol, uwsgi-docs.readthedocs.io
 * "The uwsgi Protocol"): a 4-byte header `modifier1(u8) datasize(u16 LE)
 * modifier2(u8)`, then for modifier1 0 (a WSGI request) the CGI variables
 * as `keysize(u16 LE) key valsize(u16 LE) value` pairs; the application's
 * answer comes back as a raw HTTP response. Only a plain GET for a path
 * that exists nowhere is ever sent: never UWSGI_FILE, UWSGI_SCRIPT,
 * UWSGI_MODULE, UWSGI_APPID, UWSGI_CHDIR or any other variable that makes
 * the server load code (the attack this protocol left open allows).
 *
 * The stats server (`--stats ADDR:PORT`) writes one JSON document on every
 * connection and closes it (uwsgi core/stats.c); nothing is sent to it.
 */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

/** uWSGI's example port (uwsgi docs, "Quickstart for Python/WSGI applications"). */
export const UWSGI_PORTS = [3031];
/** The stats server's port in uWSGI's docs ("The uWSGI Stats Server"). */
export const UWSGI_STATS_PORTS = [9191];

const pair = (k: string, v: string): Buffer => {
  const key = Buffer.from(k, 'latin1');
  const val = Buffer.from(v, 'latin1');
  const b = Buffer.alloc(4 + key.length + val.length);
  b.writeUInt16LE(key.length, 0);
  key.copy(b, 2);
  b.writeUInt16LE(val.length, 2 + key.length);
  val.copy(b, 4 + key.length);
  return b;
};

/** A uwsgi packet (modifier1 0: WSGI) for GET `path`; `host` fills HTTP_HOST and SERVER_NAME. */
export function uwsgiRequest(path: string, host: string, port: number): Buffer {
  const vars = Buffer.concat([
    pair('REQUEST_METHOD', 'GET'),
    pair('REQUEST_URI', path),
    pair('PATH_INFO', path),
    pair('QUERY_STRING', ''),
    pair('SERVER_PROTOCOL', 'HTTP/1.1'),
    pair('SERVER_NAME', host),
    pair('SERVER_PORT', String(port)),
    pair('HTTP_HOST', host),
    pair('HTTP_USER_AGENT', 'Vigil-Audit'),
    pair('REMOTE_ADDR', '127.0.0.1'),
  ]);
  const head = Buffer.from([0, 0, 0, 0]);
  head.writeUInt16LE(vars.length, 1);
  return Buffer.concat([head, vars]);
}

/** The status line of an HTTP response at the start of `b`, or null. */
export const httpStatusLine = (b: Buffer): string | null =>
  /^HTTP\/\d\.\d \d{3}[^\r\n]*/.exec(b.subarray(0, 200).toString('latin1'))?.[0] ?? null;

export const UWSGI_NO_SUCH = '/vigil-scanner-no-such-page';

/**
 * GET UWSGI_NO_SUCH over the uwsgi protocol: the application's HTTP response (head and up to 4 KB), or null
 * when no HTTP response came back (closed, silent, not uwsgi). An HTTP server closes or answers 400 to the
 * binary header, which starts with a NUL byte and so never with "HTTP/".
 */
export async function uwsgiAsk(net: Net, port: number, ms = 4000): Promise<string | null> {
  return talk(
    net,
    port,
    async (conv) => {
      const r = await conv.ask(uwsgiRequest(UWSGI_NO_SUCH, net.address, port), ms, (b) => b.includes('\r\n\r\n'));
      // The rest of a short body, for the finding's detail (read() returns all that came so far).
      const all = conv.closed ? r : await conv.read(300, (b) => b.length >= 4096);
      return httpStatusLine(all) ? all.subarray(0, 4096).toString('latin1') : null;
    },
    ms,
  );
}

/** What a uWSGI stats document says, for a finding (null: not uWSGI's stats JSON). */
export interface UwsgiStats {
  version: string;
  pid: number | null;
  uid: number | null;
  cwd: string | null;
  workers: number;
  sockets: string[];
  /** The apps' chdir and mountpoint values, where set. */
  paths: string[];
}

/** Parses the stats server's JSON; null unless it has uWSGI's `version` and `workers`. */
export function parseUwsgiStats(text: string): UwsgiStats | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return truncatedStats(text);
  }
  if (!doc || typeof doc !== 'object') return null;
  const d = doc as Record<string, unknown>;
  if (typeof d.version !== 'string' || !Array.isArray(d.workers)) return null;
  const num = (v: unknown) => (typeof v === 'number' ? v : null);
  const workers = d.workers as Record<string, unknown>[];
  const paths = new Set<string>();
  for (const w of workers)
    for (const a of Array.isArray(w?.apps) ? (w.apps as Record<string, unknown>[]) : [])
      for (const k of ['chdir', 'mountpoint']) if (typeof a?.[k] === 'string' && a[k]) paths.add(a[k] as string);
  const sockets = Array.isArray(d.sockets)
    ? (d.sockets as Record<string, unknown>[]).flatMap((s) => (typeof s?.name === 'string' ? [s.name] : []))
    : [];
  return {
    version: d.version,
    pid: num(d.pid),
    uid: num(d.uid),
    cwd: typeof d.cwd === 'string' ? d.cwd : null,
    workers: workers.length,
    sockets,
    paths: [...paths],
  };
}

/**
 * A document cut at the read cap (64 KB: hundreds of workers) does not parse: its head still names the
 * version, pid, uid and cwd, in the order uwsgi core/stats.c writes them.
 */
function truncatedStats(text: string): UwsgiStats | null {
  const m = /^\{\s*"version":"([^"]{1,40})",[\s\S]{0,400}?"pid":(\d+),\s*"uid":(\d+),[\s\S]{0,80}?"cwd":"([^"]*)"/.exec(
    text,
  );
  if (!m || !/"workers":\[/.test(text)) return null;
  const workers = text.slice(text.indexOf('"workers":[')).match(/"accepting":/g)?.length ?? 0;
  return { version: m[1]!, pid: Number(m[2]), uid: Number(m[3]), cwd: m[4]!, workers, sockets: [], paths: [] };
}

/** Reads the stats server's document (it writes, then closes; 64 KB at most): its text, or null. */
export async function uwsgiStats(net: Net, port: number, ms = 3000): Promise<string | null> {
  return talk(
    net,
    port,
    async (conv) => {
      // Until it closes (the document is complete then); at once when the first byte is not JSON's.
      const b = await conv.read(ms, (x) => x.length > 0 && x[0] !== 0x7b);
      return b.length ? b.toString('utf8') : null;
    },
    ms,
  );
}
