/** HTTP: GET / (Connection: close), status, headers, first 4 KB of body, Server/X-Powered-By. */
import type { Service } from '../types.ts';
import type { Conv } from '../../proto/conv.ts';
import { parseHttp } from '../../proto/http.ts';
import { stackProduct } from '../../proto/prometheus.ts';
import type { Family } from './family.ts';

const SERVERS: [RegExp, string][] = [
  [/^Apache/i, 'Apache httpd'],
  [/^nginx/i, 'nginx'],
  [/^Microsoft-IIS/i, 'Microsoft IIS httpd'],
  [/^lighttpd/i, 'lighttpd'],
  [/^openresty/i, 'OpenResty web app server'],
  [/^Caddy/i, 'Caddy httpd'],
  // Their Server headers as Debian's packages send them: "h2o/2.2.5", "mini_httpd/1.30 26Oct2018", "webfs/1.21",
  // "SimpleHTTP/0.6 Python/3.11.2" (python3 -m http.server). BusyBox httpd sends none.
  [/^h2o$/i, 'h2o httpd'],
  [/^mini_httpd$/i, 'mini_httpd'],
  [/^webfs$/i, 'webfs httpd'],
  [/^SimpleHTTP$/i, 'Python http.server'],
];

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
  // Products that send no Server header but name themselves in the page, over HTTP and TLS alike:
  // Shell In A Box (nmap-service-probes: p/ShellInABox/), and the Prometheus stack, whose GET / answer names
  // the component whatever the port (9091 is the Pushgateway's and Transmission's RPC's alike).
  if (!s.product && /<!--\s*ShellInABox - /.test(info.body)) s.product = 'ShellInABox';
  s.product = stackProduct(info) ?? s.product;
  return true;
}

export const http: Family = {
  id: 'http',
  ports: [80, 8000, 8008, 8080, 8081, 8888, 3000, 5000, 9000],
  async probe(conv, s, net) {
    const host = net.address.includes(':') ? `[${net.address}]:${s.port}` : `${net.address}:${s.port}`;
    if (!(await httpExchange(conv, s, host))) return false;
    // IPP is HTTP POST (RFC 8010 §4): CUPS and printers say so in their Server header ("CUPS/2.4 IPP/2.1"),
    // and nmap names the port ipp.
    s.name = /\bIPP\/\d/.test(s.http?.headers['server'] ?? '') ? 'ipp' : 'http';
    // Tor answers HTTP on its ControlPort with a 501 page of its own (control.c): the port is Tor's control port.
    if (/<title>Tor's ControlPort is not an HTTP proxy<\/title>/.test(s.http?.body ?? '')) s.name = 'tor-control';
    return true;
  },
};
