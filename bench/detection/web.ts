/**
 * Node HTTP/HTTPS imitations. Every target starts from the hardened answer
 * (no versions, security headers, TRACE refused, HSTS on HTTPS) and adds
 * exactly one planted weakness, so a finding can be pinned on it.
 */
import { createServer as createHttp, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { SecureVersion } from 'node:tls';

export interface WebOptions {
  /** Server header value. */
  server?: string;
  poweredBy?: string;
  trace?: boolean;
  /** HTTPS only: send Strict-Transport-Security. */
  hsts?: boolean;
}

const HARDENED_HEADERS = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'self'",
};

function handler(o: WebOptions, https: boolean) {
  return (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('server', o.server ?? 'Apache');
    if (o.poweredBy) res.setHeader('x-powered-by', o.poweredBy);
    for (const [k, v] of Object.entries(HARDENED_HEADERS)) res.setHeader(k, v);
    if (https && o.hsts !== false) res.setHeader('strict-transport-security', 'max-age=31536000');
    if (req.method === 'TRACE') {
      if (!o.trace) {
        res.writeHead(405, { 'content-type': 'text/plain', allow: 'GET, HEAD, POST, OPTIONS' });
        return res.end('Method Not Allowed\n');
      }
      // Apache's TraceEnable on: the request head comes back as message/http.
      const head = `TRACE ${req.url} HTTP/${req.httpVersion}\r\n` + req.rawHeaders.map((v, i) => (i % 2 ? `${v}\r\n` : `${v}: `)).join('');
      res.writeHead(200, { 'content-type': 'message/http' });
      return res.end(`${head}\r\n`);
    }
    if (req.url === '/' || req.url === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end('<!doctype html><html><head><title>Bench</title></head><body><h1>Bench target</h1></body></html>\n');
    }
    res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><body><h1>Not Found</h1></body></html>\n');
  };
}

export const httpTarget = (o: WebOptions) => createHttp(handler(o, false));

export interface TlsOptions extends WebOptions {
  key: string;
  /** Leaf first, then the bench CA. */
  cert: string;
  /** Accept TLS 1.0 (the planted weakness) instead of TLS 1.2+. */
  tls10?: boolean;
  /** The certificate is too weak for OpenSSL's default security level (1024-bit, SHA-1). */
  weakCert?: boolean;
}

export function httpsTarget(o: TlsOptions) {
  const minVersion: SecureVersion = o.tls10 ? 'TLSv1' : 'TLSv1.2';
  // SECLEVEL=0 only where the planted weakness needs it: TLS 1.0 ciphers, or loading a weak certificate.
  const ciphers = o.tls10 ? 'DEFAULT@SECLEVEL=0' : o.weakCert ? 'ECDHE+AESGCM:ECDHE+CHACHA20@SECLEVEL=0' : 'ECDHE+AESGCM:ECDHE+CHACHA20';
  return createHttps({ key: o.key, cert: o.cert, minVersion, ciphers }, handler(o, true));
}
