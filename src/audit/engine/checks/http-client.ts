import type { HttpInfo, Net, Service } from '../types.ts';

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
  } = {},
): Promise<HttpAnswer | null> {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const maxBytes = opts.maxBytes ?? 16384;
  let socket;
  try {
    socket = tls
      ? await net.connectTls(port, { timeoutMs, minVersion: 'TLSv1', ciphers: 'ALL:@SECLEVEL=0' })
      : await net.connect(port, { timeoutMs });
  } catch {
    return null;
  }
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
      if (size >= maxBytes + 8192) done();
    });
    socket.on('end', done);
    socket.on('error', done);
    socket.on('close', done);
    socket.write(`${head}\r\n\r\n${opts.body ?? ''}`);
  });
}

function parse(data: Buffer, maxBytes: number): HttpAnswer | null {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const lines = data.subarray(0, end).toString('latin1').split('\r\n');
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
  let body = data.subarray(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  body = body.subarray(0, maxBytes);
  return { status: Number(m[1]), headers, body: body.subarray(0, 4096).toString('latin1'), raw: body, setCookies };
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
