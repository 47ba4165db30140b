import type { Socket } from 'node:net';
import type { HttpInfo, Net, Service } from '../engine/types.ts';

export const isHttpService = (s: Service) =>
  s.http !== null || /^(http|https|http-alt|http-proxy|https-alt)$/.test(s.name);
/**
 * A plain-HTTP answer saying the port speaks TLS: nginx's 400 "The plain
 * HTTP request was sent to HTTPS port", Apache's 400 "You're speaking plain
 * HTTP to an SSL-enabled server port". Detection that tried HTTP first may
 * have recorded such a port as http; the checks then use TLS.
 */
export const tlsRefusal = (h: HttpInfo | null) =>
  !!h &&
  h.status === 400 &&
  /plain HTTP request was sent to HTTPS port|speaking plain HTTP to an SSL-enabled server port/i.test(h.body);
export const usesTls = (s: Service) => s.tls !== null || /^https/.test(s.name) || tlsRefusal(s.http);

export interface HttpAnswer extends HttpInfo {
  /** Body bytes read, after de-chunking, at most `maxBytes`. */
  raw: Buffer;
  /** Each Set-Cookie line on its own: joined with ', ' they cannot be split again (Expires holds a comma). */
  setCookies: string[];
}

const hostHeader = (address: string, port: number) =>
  address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;

/** A connection for HTTP, over TLS (any version and suite the server still has) or not; null on failure. */
export async function openHttpSocket(net: Net, port: number, tls: boolean, timeoutMs: number): Promise<Socket | null> {
  try {
    return tls
      ? await net.connectTls(port, { timeoutMs, minVersion: 'TLSv1', ciphers: 'ALL:@SECLEVEL=0' })
      : await net.connect(port, { timeoutMs });
  } catch {
    return null;
  }
}

/**
 * One raw HTTP/1.1 request (so that TRACE, CONNECT and absolute-form
 * targets are possible), Connection: close, bounded in time and bytes.
 * Null on any failure: checks never throw.
 */
export async function httpRequest(
  net: Net,
  port: number,
  tls: boolean,
  opts: {
    method?: string;
    target?: string;
    host?: string;
    headers?: Record<string, string>;
    body?: string;
    timeoutMs?: number;
    maxBytes?: number;
    /**
     * Done once the body has its Content-Length, without waiting for the close: for servers that keep the
     * connection open whatever the request says (the V8 inspector answers HTTP/1.0 and does not close).
     */
    endAtLength?: boolean;
  } = {},
): Promise<HttpAnswer | null> {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const maxBytes = opts.maxBytes ?? 16384;
  const socket = await openHttpSocket(net, port, tls, timeoutMs);
  if (!socket) return null;
  const head = [
    `${opts.method ?? 'GET'} ${opts.target ?? '/'} HTTP/1.1`,
    `Host: ${opts.host ?? hostHeader(net.address, port)}`,
    'User-Agent: Vigil-Audit',
    'Accept: */*',
    'Connection: close',
    ...Object.entries(opts.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
    ...(opts.body !== undefined ? [`Content-Length: ${Buffer.byteLength(opts.body)}`] : []),
  ].join('\r\n');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      try {
        resolve(parse(Buffer.concat(chunks), maxBytes));
      } catch {
        resolve(null);
      }
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      size += c.length;
      if (size >= maxBytes + 8192 || (opts.endAtLength && bodyComplete(Buffer.concat(chunks)))) done();
    });
    socket.on('end', done);
    socket.on('error', done);
    socket.on('close', done);
    socket.write(`${head}\r\n\r\n${opts.body ?? ''}`);
  });
}

/** The head has arrived and the body has its Content-Length bytes. */
function bodyComplete(data: Buffer): boolean {
  const end = data.indexOf('\r\n\r\n');
  const length = end < 0 ? null : /\r\ncontent-length:\s*(\d+)/i.exec(data.subarray(0, end).toString('latin1'));
  return !!length && data.length - end - 4 >= Number(length[1]);
}

/**
 * A response head and the body read so far; null unless it starts like
 * HTTP. A head cut short (no blank line yet) still parses, with no body:
 * detection reads what a slow server sent in time.
 */
function parseResponse(
  data: Buffer,
): { status: number; headers: Record<string, string>; setCookies: string[]; body: Buffer; ended: boolean } | null {
  const end = data.indexOf('\r\n\r\n');
  const lines = data
    .subarray(0, end < 0 ? data.length : end)
    .toString('latin1')
    .split('\r\n');
  const m = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(lines[0] ?? '');
  if (!m) return null;
  const headers: Record<string, string> = {};
  const setCookies: string[] = [];
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    if (i <= 0) continue;
    const k = line.slice(0, i).trim().toLowerCase();
    const v = line.slice(i + 1).trim();
    headers[k] = headers[k] ? `${headers[k]}, ${v}` : v;
    if (k === 'set-cookie') setCookies.push(v);
  }
  let body = end < 0 ? Buffer.alloc(0) : data.subarray(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  return { status: Number(m[1]), headers, setCookies, body, ended: end >= 0 };
}

/** A response as detection records it (Service.http): status, headers, the first 4 KB of body. */
export function parseHttp(data: Buffer): HttpInfo | null {
  const r = parseResponse(data);
  return r && { status: r.status, headers: r.headers, body: r.body.subarray(0, 4096).toString('latin1') };
}

function parse(data: Buffer, maxBytes: number): HttpAnswer | null {
  const r = parseResponse(data);
  if (!r?.ended) return null;
  const raw = r.body.subarray(0, maxBytes);
  return {
    status: r.status,
    headers: r.headers,
    body: raw.subarray(0, 4096).toString('latin1'),
    raw,
    setCookies: r.setCookies,
  };
}

function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let off = 0;
  while (off < data.length) {
    const eol = data.indexOf('\r\n', off);
    if (eol < 0) break;
    const n = parseInt(data.subarray(off, eol).toString('latin1'), 16);
    if (!Number.isFinite(n) || n <= 0) break;
    out.push(data.subarray(eol + 2, eol + 2 + n));
    off = eol + 2 + n + 2;
  }
  return Buffer.concat(out);
}

/** GET / as service detection would record it (exported so detection can share it). */
export async function fetchHttpInfo(net: Net, port: number, tls: boolean): Promise<HttpInfo | null> {
  const a = await httpRequest(net, port, tls);
  return a && { status: a.status, headers: a.headers, body: a.body };
}

/** How long an unfinished request may stay open before the server is called susceptible, and the trickle interval. */
export const SLOW_HOLD_MS = 6_000;
export const SLOW_TRICKLE_MS = 2_000;

/** True when the server still holds a request whose headers never end after `holdMs`. */
export async function holdsSlowRequest(net: Net, port: number, tls: boolean, holdMs = SLOW_HOLD_MS): Promise<boolean> {
  let socket: Socket;
  try {
    socket = tls ? await net.connectTls(port, { timeoutMs: 5000 }) : await net.connect(port, { timeoutMs: 5000 });
  } catch {
    return false;
  }
  return new Promise<boolean>((resolve) => {
    let n = 0;
    const done = (open: boolean) => {
      clearInterval(trickle);
      clearTimeout(timer);
      socket.destroy();
      resolve(open);
    };
    socket.on('data', () => done(false)); // an answer (400/408) ends the request
    socket.on('close', () => done(false));
    socket.on('error', () => done(false));
    socket.write(`GET / HTTP/1.1\r\nHost: ${net.address}\r\nUser-Agent: Vigil-Audit\r\n`);
    // One header line every few seconds, as slowloris does: below any sane minimum rate.
    const trickle = setInterval(() => socket.write(`X-Vigil-${n++}: 1\r\n`), SLOW_TRICKLE_MS);
    const timer = setTimeout(() => done(!socket.destroyed), holdMs);
  });
}

/** Web ports over TLS, and web ports in plain text: the port rules of checks about one or the other. */
export const httpsService = (s: Service) => isHttpService(s) && usesTls(s);
export const plainHttpService = (s: Service) => isHttpService(s) && !usesTls(s);

/**
 * First status line of a request with `Expect: 100-continue` whose body is
 * never sent (RFC 9110 §10.1.1): a server that would take the body answers
 * "100 Continue" after its method and authorization checks; one that
 * refuses answers 401/403/405 at once. We hang up before any body byte, so
 * nothing is written (nginx and mod_dav_fs write to a temporary file and
 * drop it when the body is cut short).
 */
export async function expectContinue(
  net: Net,
  port: number,
  tls: boolean,
  method: string,
  target: string,
): Promise<string | null> {
  const s = await openHttpSocket(net, port, tls, 4000);
  if (!s) return null;
  return new Promise((resolve) => {
    let got = '';
    const done = (v: string | null) => (clearTimeout(timer), s.destroy(), resolve(v));
    const timer = setTimeout(() => done(null), 3000);
    s.on('data', (c: Buffer) => {
      got += c.toString('latin1');
      const line = /^HTTP\/\d\.\d (\d{3})[^\r\n]*\r?\n/.exec(got);
      if (line) done(line[1]!);
    });
    s.on('error', () => done(null));
    s.on('close', () => done(null));
    s.write(
      `${method} ${target} HTTP/1.1\r\nHost: ${net.address.includes(':') ? `[${net.address}]` : net.address}:${port}\r\nUser-Agent: Vigil-Audit\r\nContent-Type: text/plain\r\nContent-Length: 32\r\nExpect: 100-continue\r\n\r\n`,
    );
  });
}
