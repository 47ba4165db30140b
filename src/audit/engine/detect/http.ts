/** HTTP: GET / (Connection: close), status, headers, first 4 KB of body, Server/X-Powered-By. */
import type { HttpInfo, Service } from '../types.ts';
import type { Conv, Family } from './io.ts';

const SERVERS: [RegExp, string][] = [
  [/^Apache/i, 'Apache httpd'],
  [/^nginx/i, 'nginx'],
  [/^Microsoft-IIS/i, 'Microsoft IIS httpd'],
  [/^lighttpd/i, 'lighttpd'],
  [/^openresty/i, 'OpenResty web app server'],
  [/^Caddy/i, 'Caddy httpd'],
];

/** Parses a response head (+ body so far); null unless it starts like HTTP. */
export function parseHttp(data: Buffer): HttpInfo | null {
  const end = data.indexOf('\r\n\r\n');
  const headEnd = end < 0 ? data.length : end;
  const lines = data.subarray(0, headEnd).toString('latin1').split('\r\n');
  const m = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(lines[0] ?? '');
  if (!m) return null;
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    if (i <= 0) continue;
    const k = line.slice(0, i).trim().toLowerCase();
    const v = line.slice(i + 1).trim();
    headers[k] = headers[k] ? `${headers[k]}, ${v}` : v;
  }
  let body = end < 0 ? Buffer.alloc(0) : data.subarray(end + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
  return { status: Number(m[1]), headers, body: body.subarray(0, 4096).toString('latin1') };
}

function dechunk(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let off = 0;
  while (off < data.length) {
    const eol = data.indexOf('\r\n', off);
    const n = eol < 0 ? NaN : parseInt(data.subarray(off, eol).toString('latin1'), 16);
    if (!(n > 0)) break;
    out.push(data.subarray(eol + 2, eol + 2 + n));
    off = eol + 2 + n + 2;
  }
  return Buffer.concat(out);
}

/** Enough read: the head and Content-Length bytes, the last chunk, or 4 KB of body. */
function complete(b: Buffer): boolean {
  const end = b.indexOf('\r\n\r\n');
  // Not HTTP at all: stop at once rather than wait out the timeout.
  if (end < 0) return b.length >= 5 && !b.subarray(0, 5).toString('latin1').startsWith('HTTP/');
  const head = b.subarray(0, end).toString('latin1');
  const body = b.length - end - 4;
  const cl = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (cl) return body >= Math.min(Number(cl[1]), 4096);
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) return b.includes('\r\n0\r\n\r\n', end) || body >= 8192;
  return /^HTTP\/\d\.\d [1-3]04|^HTTP\/\d\.\d 1\d\d/.test(head) || body >= 4096;
}

/** Sends GET / on `conv`; fills s.http, product/version. */
export async function httpExchange(conv: Conv, s: Service, host: string, timeoutMs = 3000): Promise<boolean> {
  const req = `GET / HTTP/1.1\r\nHost: ${host}\r\nUser-Agent: Vigil-Audit\r\nAccept: */*\r\nConnection: close\r\n\r\n`;
  const info = parseHttp(await conv.ask(req, timeoutMs, complete));
  if (!info) return false;
  s.http = info;
  const server = info.headers['server'];
  const powered = info.headers['x-powered-by'];
  if (powered) s.extra.poweredBy = powered;
  const token = server ?? powered;
  if (token) {
    const m = /^([^/\s(]+)(?:\/([^\s(]+))?/.exec(token);
    if (m) {
      s.product = SERVERS.find(([re]) => re.test(m[1]!))?.[1] ?? m[1]!;
      s.version = m[2] ?? null;
    }
  }
  return true;
}

export const http: Family = {
  id: 'http',
  ports: [80, 8000, 8008, 8080, 8081, 8888, 3000, 5000, 9000],
  async probe(conv, s, net) {
    const host = net.address.includes(':') ? `[${net.address}]:${s.port}` : `${net.address}:${s.port}`;
    if (!(await httpExchange(conv, s, host))) return false;
    s.name = 'http';
    return true;
  },
};
