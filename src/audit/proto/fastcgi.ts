/**
 * FastCGI (the FastCGI specification 1.0, fastcgi-archives.github.io):
 * records of `version(1)=1 type(1) requestId(2) contentLength(2)
 * paddingLength(1) reserved(1)`, content, padding. Two exchanges, neither
 * running a script:
 * - FCGI_GET_VALUES (type 9, request id 0, §4.1): a management record
 *   asking FCGI_MAX_CONNS, FCGI_MAX_REQS and FCGI_MPXS_CONNS, answered by
 *   FCGI_GET_VALUES_RESULT (type 10) from an application that takes the
 *   connection (php-fpm, libfcgi's programs such as fcgiwrap);
 * - a Responder request (BEGIN_REQUEST, PARAMS, STDIN) for a script that
 *   exists nowhere, answered with STDOUT (a "404"/"File not found") and
 *   END_REQUEST.
 * php-fpm drops a client outside listen.allowed_clients before reading.
 */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

const record = (type: number, id: number, content: Buffer): Buffer => {
  const pad = (8 - (content.length % 8)) % 8;
  const head = Buffer.from([1, type, id >> 8, id & 0xff, content.length >> 8, content.length & 0xff, pad, 0]);
  return Buffer.concat([head, content, Buffer.alloc(pad)]);
};

const pair = (name: string, value: string): Buffer => {
  const n = Buffer.from(name, 'latin1');
  const v = Buffer.from(value, 'latin1');
  const len = (x: number) =>
    x < 128 ? Buffer.from([x]) : Buffer.from([0x80 | (x >> 24), (x >> 16) & 0xff, (x >> 8) & 0xff, x & 0xff]);
  return Buffer.concat([len(n.length), len(v.length), n, v]);
};

export interface FcgiRecord {
  type: number;
  id: number;
  content: Buffer;
}

/** The whole records at the start of `b` (a cut record ends the list). */
export function parseRecords(b: Buffer): FcgiRecord[] {
  const out: FcgiRecord[] = [];
  let off = 0;
  while (off + 8 <= b.length && b[off] === 1) {
    const len = b.readUInt16BE(off + 4);
    const end = off + 8 + len + b[off + 6]!;
    if (end > b.length) break;
    out.push({ type: b[off + 1]!, id: b.readUInt16BE(off + 2), content: b.subarray(off + 8, off + 8 + len) });
    off = end;
  }
  return out;
}

/** Name-value pairs of a GET_VALUES_RESULT's content. */
export function parsePairs(b: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let off = 0;
  const len = (): number | null => {
    if (off >= b.length) return null;
    if (b[off]! < 128) return b[off++]!;
    if (off + 4 > b.length) return null;
    const n = b.readUInt32BE(off) & 0x7fffffff;
    off += 4;
    return n;
  };
  while (off < b.length) {
    const n = len();
    const v = len();
    if (n === null || v === null || off + n + v > b.length) break;
    out[b.subarray(off, off + n).toString('latin1')] = b.subarray(off + n, off + n + v).toString('latin1');
    off += n + v;
  }
  return out;
}

/** FCGI_GET_VALUES answered: the values, or null (closed, silent, not FastCGI). */
export async function fcgiGetValues(net: Net, port: number, ms = 3000): Promise<Record<string, string> | null> {
  const ask = record(
    9,
    0,
    Buffer.concat(['FCGI_MAX_CONNS', 'FCGI_MAX_REQS', 'FCGI_MPXS_CONNS'].map((n) => pair(n, ''))),
  );
  return talk(
    net,
    port,
    async (conv) => {
      const r = parseRecords(await conv.ask(ask, ms, (b) => parseRecords(b).length > 0));
      const result = r.find((x) => x.type === 10 && x.id === 0);
      return result ? parsePairs(result.content) : null;
    },
    ms,
  );
}

/** A Responder request for `script` (which should not exist): the STDOUT it wrote, or null without END_REQUEST. */
export async function fcgiRequest(net: Net, port: number, script: string, ms = 4000): Promise<string | null> {
  const params = Buffer.concat([
    pair('SCRIPT_FILENAME', script),
    pair('SCRIPT_NAME', script),
    pair('REQUEST_URI', script),
    pair('DOCUMENT_URI', script),
    pair('REQUEST_METHOD', 'GET'),
    pair('QUERY_STRING', ''),
    pair('SERVER_PROTOCOL', 'HTTP/1.1'),
    pair('GATEWAY_INTERFACE', 'CGI/1.1'),
    pair('SERVER_SOFTWARE', 'Vigil-Audit'),
    pair('REMOTE_ADDR', '127.0.0.1'),
  ]);
  const req = Buffer.concat([
    record(1, 1, Buffer.from([0, 1, 0, 0, 0, 0, 0, 0])), // BEGIN_REQUEST: role Responder, close after
    record(4, 1, params),
    record(4, 1, Buffer.alloc(0)),
    record(5, 1, Buffer.alloc(0)),
  ]);
  return talk(
    net,
    port,
    async (conv) => {
      const r = parseRecords(await conv.ask(req, ms, (b) => parseRecords(b).some((x) => x.type === 3)));
      if (!r.some((x) => x.type === 3 && x.id === 1)) return null;
      return Buffer.concat(r.filter((x) => x.type === 6 && x.id === 1).map((x) => x.content)).toString('latin1');
    },
    ms,
  );
}
