/**
 * AJP/1.3 (Apache JServ Protocol, https://tomcat.apache.org/connectors-doc/ajp/ajpv13a.html),
 * what a front web server (mod_jk, mod_proxy_ajp) speaks to a servlet
 * container's AJP connector: Tomcat's, JBoss/WildFly's (Undertow), Jetty's
 * and GlassFish's. Packets to the container start 0x12 0x34, packets back
 * "AB", each followed by a 2-byte length. Two exchanges: CPing/CPong
 * (detection), and one FORWARD_REQUEST (a GET, nothing with a body), whose
 * SEND_HEADERS, SEND_BODY_CHUNK and END_RESPONSE packets are read back.
 */
import type { Net } from '../engine/types.ts';
import type { Conv } from './conv.ts';
import { shown, talk } from './talk.ts';

/** CPing (type 10): a container answers CPong, "AB" 00 01 09 (nmap's ajp probe). */
export const CPING = Buffer.from([0x12, 0x34, 0x00, 0x01, 0x0a]);
export const isCpong = (b: Buffer) => b.length >= 5 && b.subarray(0, 5).equals(Buffer.from([0x41, 0x42, 0, 1, 9]));

/** AJP string: 2-byte length, the bytes, a NUL (the length excludes it). */
function str(s: string): Buffer {
  const b = Buffer.from(s, 'utf8');
  const len = Buffer.alloc(2);
  len.writeUInt16BE(b.length);
  return Buffer.concat([len, b, Buffer.from([0])]);
}
const int = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};

/** Request header codes of the specification (SC_REQ_HOST, SC_REQ_USER_AGENT, SC_REQ_ACCEPT). */
const HOST = 0xa00b;
const USER_AGENT = 0xa00e;
const ACCEPT = 0xa001;
/** Attribute code of an arbitrary request attribute (?req_attribute), and the list's terminator. */
const REQ_ATTRIBUTE = 0x0a;
const ARE_DONE = 0xff;

export interface AjpRequest {
  uri: string;
  /** Arbitrary request attributes (name, value), sent as ?req_attribute. */
  attributes?: readonly (readonly [string, string])[];
}

/** A FORWARD_REQUEST packet (prefix 2) for GET `uri` as a front server would send it. */
export function forwardRequest(address: string, port: number, req: AjpRequest): Buffer {
  const body = Buffer.concat([
    Buffer.from([0x02, 0x02]), // FORWARD_REQUEST, method GET
    str('HTTP/1.1'),
    str(req.uri),
    str(address), // remote_addr: the container sees the scanner as its own front server would name it
    str(address),
    str(address), // server_name
    int(port),
    Buffer.from([0]), // is_ssl false
    int(3),
    int(HOST),
    str(address),
    int(USER_AGENT),
    str('Vigil-Audit'),
    int(ACCEPT),
    str('*/*'),
    ...(req.attributes ?? []).flatMap(([name, value]) => [Buffer.from([REQ_ATTRIBUTE]), str(name), str(value)]),
    Buffer.from([ARE_DONE]),
  ]);
  return Buffer.concat([Buffer.from([0x12, 0x34]), int(body.length), body]);
}

export interface AjpResponse {
  status: number;
  message: string;
  headers: Record<string, string>;
  /** Body chunks joined, at most 64 KiB (Conv's cap), as latin1. */
  body: string;
  /** END_RESPONSE came (false: the container closed or the read timed out first). */
  ended: boolean;
}

/** Response header codes (SC_RESP_*), 0xA001 … 0xA00B. */
const RESP_HEADERS = [
  'content-type',
  'content-language',
  'content-length',
  'date',
  'last-modified',
  'location',
  'set-cookie',
  'set-cookie2',
  'servlet-engine',
  'status',
  'www-authenticate',
];

/** Reads container packets: null when the bytes are not AJP, else the response so far. */
export function parseResponse(b: Buffer): AjpResponse | null {
  let at = 0;
  let res: AjpResponse | null = null;
  const body: Buffer[] = [];
  while (at + 4 <= b.length) {
    if (b[at] !== 0x41 || b[at + 1] !== 0x42) return null;
    const len = b.readUInt16BE(at + 2);
    if (at + 4 + len > b.length) break;
    const p = b.subarray(at + 4, at + 4 + len);
    at += 4 + len;
    const type = p[0];
    if (type === 4) res = headersOf(p);
    else if (type === 3 && p.length >= 3) body.push(p.subarray(3, 3 + p.readUInt16BE(1)));
    else if (type === 5 && res) res.ended = true;
  }
  if (res) res.body = Buffer.concat(body).toString('latin1');
  return res;
}

/** SEND_HEADERS: status, message, then name (a code or a string) and value pairs. */
function headersOf(p: Buffer): AjpResponse {
  let at = 1;
  const readStr = () => {
    const n = p.readUInt16BE(at);
    at += 2;
    if (n === 0xffff) return '';
    const s = p.subarray(at, at + n).toString('latin1');
    at += n + 1;
    return s;
  };
  const status = p.readUInt16BE(at);
  at += 2;
  const message = readStr();
  const count = p.readUInt16BE(at);
  at += 2;
  const headers: Record<string, string> = {};
  for (let i = 0; i < count && at < p.length; i++) {
    const code = p.readUInt16BE(at);
    let name: string;
    if (code >= 0xa001 && code <= 0xa00b) {
      name = RESP_HEADERS[code - 0xa001]!;
      at += 2;
    } else name = readStr().toLowerCase();
    headers[name] = readStr();
  }
  return { status, message, headers, body: '', ended: false };
}

const ended = (b: Buffer) => {
  try {
    return parseResponse(b)?.ended === true;
  } catch {
    return true; // a malformed packet: stop reading
  }
};

/** One FORWARD_REQUEST on its own connection; null when the port does not answer in AJP. */
export function ajpForward(net: Net, port: number, req: AjpRequest): Promise<AjpResponse | null> {
  return talk(net, port, async (c: Conv) => {
    const r = await c.ask(forwardRequest(net.address, port, req), 4000, ended);
    try {
      return parseResponse(r);
    } catch {
      return null;
    }
  });
}

/** CPing on its own connection: true when CPong came back. */
export function ajpPing(net: Net, port: number): Promise<boolean> {
  return talk(net, port, async (c: Conv) => isCpong(await c.ask(CPING, 2000, (b) => b.length >= 5))).then(
    (ok) => ok === true,
  );
}

/** "SEND_HEADERS 200 OK (Content-Type text/html)": what the container answered, for a finding. */
export const answered = (r: AjpResponse) =>
  `SEND_HEADERS ${r.status} ${shown(r.message, 40)}${r.headers['content-type'] ? ` (Content-Type ${shown(r.headers['content-type'], 60)})` : ''}`;
