/**
 * XML-RPC over HTTP (https://xmlrpc.com/spec.md): a `methodCall` POSTed to
 * an endpoint, answered by a `methodResponse` holding one value or a
 * `fault`. Only calls without parameters, and only what a finding quotes is
 * read from the answer: scalar members and array lengths, by pattern (the
 * documents are small and flat; no entity or DTD is ever expanded).
 */
import type { Net } from '../engine/types.ts';
import { type HttpAnswer, httpRequest } from './http.ts';

export interface XmlRpcAnswer {
  http: HttpAnswer;
  /** The methodResponse's text (at most 64 KB), or null when the answer is not one. */
  response: string | null;
  fault: string | null;
}

const call = (method: string) =>
  `<?xml version="1.0"?>\n<methodCall><methodName>${method}</methodName><params></params></methodCall>\n`;

/** POSTs one call without parameters; null when nothing HTTP came back. */
export async function xmlRpcCall(
  net: Net,
  port: number,
  tls: boolean,
  path: string,
  method: string,
  timeoutMs = 5000,
): Promise<XmlRpcAnswer | null> {
  const http = await httpRequest(net, port, tls, {
    method: 'POST',
    target: path,
    headers: { 'Content-Type': 'text/xml' },
    body: call(method),
    timeoutMs,
    maxBytes: 65536,
  });
  if (!http) return null;
  const text = http.raw.toString('utf8');
  const response = http.status === 200 && /<methodResponse>/.test(text) ? text : null;
  const fault = response && /<fault>/.test(response) ? (member(response, 'faultString') ?? 'fault') : null;
  return { http, response, fault };
}

const xmlText = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** The scalar value of the first struct member so named (`<name>statename</name><value><string>RUNNING</string>`). */
export function member(xml: string, name: string): string | null {
  const m = new RegExp(
    `<name>${name}</name>\\s*<value>\\s*(?:<(?:string|int|i4|boolean|double)>([^<]*)</(?:string|int|i4|boolean|double)>|([^<]*))\\s*</value>`,
  ).exec(xml);
  return m ? xmlText(m[1] ?? m[2] ?? '') : null;
}

/** Every scalar value of the members so named (the `name` of each process in an array of structs). */
export function members(xml: string, name: string): string[] {
  const re = new RegExp(`<name>${name}</name>\\s*<value>\\s*(?:<string>)?([^<]*)(?:</string>)?\\s*</value>`, 'g');
  return [...xml.matchAll(re)].map((m) => xmlText(m[1]!));
}

/** The single scalar a method returned (`<params><param><value><string>4.2.5</string>`). */
export function scalar(xml: string): string | null {
  const m =
    /<params>\s*<param>\s*<value>\s*(?:<(string|int|i4|boolean)>([^<]*)<\/\1>|([^<]+))\s*<\/value>\s*<\/param>\s*<\/params>/.exec(
      xml,
    );
  return m ? xmlText(m[2] ?? m[3] ?? '').trim() : null;
}
