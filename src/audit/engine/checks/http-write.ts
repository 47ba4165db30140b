import { randomBytes } from 'node:crypto';
import type { Check, Finding, HostFacts, Net, Service } from '../types.ts';
import { httpRequest, isHttpService, usesTls } from './http-client.ts';

/**
 * Writes over HTTP: PUT and WebDAV. The proof is the write itself (a
 * unique file PUT, read back, deleted), so that check is intrusive and
 * runs in `advanced` audits only; the read-only PROPFIND check tells
 * `standard` audits that WebDAV answers without authentication.
 */

/** Where servers commonly enable WebDAV or uploads (nginx dav_methods and mod_dav are usually set on one location). */
const DAV_PATHS = ['/', '/uploads/', '/upload/', '/webdav/', '/dav/', '/files/'];

async function putProbe(net: Net, svc: Service): Promise<string | null> {
  const tls = usesTls(svc);
  for (const dir of DAV_PATHS) {
    const name = `vigil-put-${randomBytes(8).toString('hex')}.txt`;
    const mark = `vigil write probe ${randomBytes(12).toString('hex')}\n`;
    const target = `${dir}${name}`;
    const put = await httpRequest(net, svc.port, tls, {
      method: 'PUT',
      target,
      body: mark,
      headers: { 'Content-Type': 'text/plain' },
      timeoutMs: 4000,
    });
    if (!put) return null; // no answer: the other paths would only wait as long
    if (put.status < 200 || put.status >= 300) continue;
    // 2xx alone is not proof (some frameworks answer 200 to anything): read it back.
    const back = await httpRequest(net, svc.port, tls, { target, timeoutMs: 4000 });
    const del = await httpRequest(net, svc.port, tls, { method: 'DELETE', target, timeoutMs: 4000 });
    const deleted = !!del && del.status >= 200 && del.status < 300;
    if (back?.status === 200 && back.body.includes(mark.trim())) {
      return `PUT ${target} answered HTTP ${put.status} and GET returned the content we wrote; ${deleted ? 'DELETE removed it' : `DELETE failed (HTTP ${del?.status ?? 'no answer'}): remove ${target} by hand`}.`;
    }
  }
  return null;
}

/**
 * First status line of a request with `Expect: 100-continue` whose body is
 * never sent (RFC 9110 §10.1.1): a server that would take the body answers
 * "100 Continue" after its method and authorization checks; one that
 * refuses answers 401/403/405 at once. We hang up before any body byte, so
 * nothing is written (nginx and mod_dav_fs write to a temporary file and
 * drop it when the body is cut short).
 */
async function expectContinue(net: Net, svc: Service, method: string, target: string): Promise<string | null> {
  let socket;
  try {
    socket = usesTls(svc)
      ? await net.connectTls(svc.port, { timeoutMs: 4000, minVersion: 'TLSv1', ciphers: 'ALL:@SECLEVEL=0' })
      : await net.connect(svc.port, { timeoutMs: 4000 });
  } catch {
    return null;
  }
  const s = socket;
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
      `${method} ${target} HTTP/1.1\r\nHost: ${net.address.includes(':') ? `[${net.address}]` : net.address}:${svc.port}\r\nUser-Agent: Vigil-Audit\r\nContent-Type: text/plain\r\nContent-Length: 32\r\nExpect: 100-continue\r\n\r\n`,
    );
  });
}

async function putAcceptedProbe(net: Net, svc: Service): Promise<string | null> {
  const token = randomBytes(8).toString('hex');
  // Control: a server that says 100 to anything (Node's http module does by default) proves nothing,
  // and one that says nothing (it waits for the body: no Expect support) would cost every path its timeout.
  const control = await expectContinue(net, svc, 'POST', `/vigil-${token}.txt`);
  if (control === '100' || control === null) return null;
  for (const dir of DAV_PATHS) {
    const target = `${dir}vigil-put-${token}.txt`;
    const answer = await expectContinue(net, svc, 'PUT', target);
    if (answer === null) return null;
    if (answer === '100') {
      return `PUT ${target} with Expect: 100-continue was answered "100 Continue" (the server would take the upload) while a POST to a random path was not; no body was sent.`;
    }
  }
  return null;
}

const PROPFIND =
  '<?xml version="1.0" encoding="utf-8"?>\n<D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/></D:prop></D:propfind>\n';

async function propfindProbe(net: Net, svc: Service): Promise<string | null> {
  for (const dir of DAV_PATHS) {
    const a = await httpRequest(net, svc.port, usesTls(svc), {
      method: 'PROPFIND',
      target: dir,
      body: PROPFIND,
      headers: { Depth: '0', 'Content-Type': 'application/xml' },
      timeoutMs: 4000,
    });
    if (!a) return null;
    // RFC 4918 §9.1: a PROPFIND answered 207 Multi-Status with a DAV: multistatus body.
    if (a?.status === 207 && /<(?:\w+:)?multistatus\b[^>]*DAV:/i.test(a.body)) {
      const allow = a.headers['allow'] ? `; Allow: ${a.headers['allow'].slice(0, 100)}` : '';
      return `PROPFIND ${dir} answered 207 Multi-Status without authentication${allow}.`;
    }
  }
  return null;
}

function writeCheck(
  id: string,
  shortid: string,
  title: string,
  risk: 'high' | 'medium',
  type: 'HOLE' | 'NOTE',
  intrusive: boolean,
  description: string,
  solution: string,
  probe: (net: Net, svc: Service) => Promise<string | null>,
  qod = 99,
): Check {
  return {
    id,
    shortid,
    title,
    category: 'Web Servers',
    risk,
    cves: [],
    type,
    description,
    solution,
    intrusive,
    dos: false,
    active: true,
    qod,
    async run(host: HostFacts, net: Net): Promise<Finding[]> {
      const findings: Finding[] = [];
      for (const svc of host.services.filter(isHttpService)) {
        const detail = await probe(net, svc).catch(() => null);
        if (detail) findings.push({ port: svc.port, detail });
      }
      return findings;
    },
  };
}

export const HTTP_WRITE_CHECKS: readonly Check[] = [
  writeCheck(
    'vigil.http.put-write',
    'HTTP-PUT',
    'Web server accepts file uploads with PUT (no authentication)',
    'high',
    'HOLE',
    true,
    'Anyone can create files on the server with HTTP PUT (WebDAV or dav_methods without authentication): an attacker can deface the site, plant malware for visitors or, where scripts run, upload a web shell.',
    'Require authentication for PUT and the WebDAV write methods, or disable them (Apache: no Dav On without Require; nginx: no dav_methods).',
    putProbe,
  ),
  writeCheck(
    'vigil.http.put-accepted',
    'HTTP-PUT-ACCEPTED',
    'Web server would accept uploads with PUT (no authentication)',
    'medium',
    'NOTE',
    false,
    'A PUT without credentials gets "100 Continue": the server is ready to store what anyone sends (WebDAV or dav_methods without authentication). Seen without writing anything; the advanced audit confirms it with a real write.',
    'Require authentication for PUT and the WebDAV write methods, or disable them (Apache: no Dav On without Require; nginx: no dav_methods).',
    putAcceptedProbe,
    80,
  ),
  writeCheck(
    'vigil.http.webdav-open',
    'HTTP-WEBDAV',
    'WebDAV answers without authentication',
    'medium',
    'NOTE',
    false,
    'WebDAV answers PROPFIND without asking for credentials: anyone can list the collection and its properties, and write methods are often enabled with it.',
    'Require authentication for the WebDAV location (Apache: AuthType and Require valid-user in its <Location>), or turn WebDAV off.',
    propfindProbe,
  ),
];
