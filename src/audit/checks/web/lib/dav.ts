import { randomBytes } from 'node:crypto';
import type { Net, Service } from '../../../engine/types.ts';
import { expectContinue, httpRequest, usesTls } from '../../../proto/http.ts';

/**
 * Writes over HTTP: PUT and WebDAV. The proof is the write itself (a
 * unique file PUT, read back, deleted), so that check is intrusive and
 * runs in `advanced` audits only; the read-only PROPFIND check tells
 * `standard` audits that WebDAV answers without authentication.
 */

/** Where servers commonly enable WebDAV or uploads (nginx dav_methods and mod_dav are usually set on one location). */
export const DAV_PATHS = ['/', '/uploads/', '/upload/', '/webdav/', '/dav/', '/files/'];

export async function putProbe(net: Net, svc: Service): Promise<string | null> {
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

export async function putAcceptedProbe(net: Net, svc: Service): Promise<string | null> {
  const token = randomBytes(8).toString('hex');
  // Control: a server that says 100 to anything (Node's http module does by default) proves nothing,
  // and one that says nothing (it waits for the body: no Expect support) would cost every path its timeout.
  const control = await expectContinue(net, svc.port, usesTls(svc), 'POST', `/vigil-${token}.txt`);
  if (control === '100' || control === null) return null;
  for (const dir of DAV_PATHS) {
    const target = `${dir}vigil-put-${token}.txt`;
    const answer = await expectContinue(net, svc.port, usesTls(svc), 'PUT', target);
    if (answer === null) return null;
    if (answer === '100') {
      return `PUT ${target} with Expect: 100-continue was answered "100 Continue" (the server would take the upload) while a POST to a random path was not; no body was sent.`;
    }
  }
  return null;
}

const PROPFIND =
  '<?xml version="1.0" encoding="utf-8"?>\n<D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/></D:prop></D:propfind>\n';

export async function propfindProbe(net: Net, svc: Service): Promise<string | null> {
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
