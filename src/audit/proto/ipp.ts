/**
 * IPP (RFC 8010 encoding, RFC 8011 operations) over HTTP POST: the
 * read-only queries the printing checks make, CUPS-Get-Printers (CUPS's
 * own operation 0x4002, which lists every queue) and Get-Printer-Attributes
 * (0x000B, any IPP printer), and the attributes of the answer. Nothing is
 * printed or changed.
 */
import type { Net, Service } from '../engine/types.ts';
import { httpRequest } from './http.ts';

/** IPP speaks HTTP: CUPS says so in its Server header ("CUPS/2.4 IPP/2.1"), as do many printers ("… IPP/2.0"). */
export const speaksIpp = (s: Service) =>
  s.name === 'ipp' || /\bIPP\/\d|\bCUPS\//i.test(s.http?.headers['server'] ?? '');

const TAG = { operation: 0x01, end: 0x03, charset: 0x47, language: 0x48, uri: 0x45, keyword: 0x44 } as const;

const attribute = (tag: number, name: string, value: string) => {
  const n = Buffer.from(name, 'latin1');
  const v = Buffer.from(value, 'utf8');
  const b = Buffer.alloc(5 + n.length + v.length);
  b[0] = tag;
  b.writeUInt16BE(n.length, 1);
  n.copy(b, 3);
  b.writeUInt16BE(v.length, 3 + n.length);
  v.copy(b, 5 + n.length);
  return b;
};
/** A further value of the attribute before (RFC 8010 §3.1.5: an empty name). */
const more = (tag: number, value: string) => attribute(tag, '', value);

/** The attributes asked for: what names a queue and the device behind it. */
export const PRINTER_ATTRIBUTES = [
  'printer-name',
  'printer-make-and-model',
  'printer-info',
  'printer-location',
  'printer-uri-supported',
  'printer-is-shared',
];

/** An IPP/1.1 request: operation id, request id 1, the operation attributes (charset and language first). */
export function ippRequest(operation: number, printerUri: string | null): Buffer {
  const head = Buffer.from([1, 1, operation >> 8, operation & 0xff, 0, 0, 0, 1, TAG.operation]);
  const [first, ...rest] = PRINTER_ATTRIBUTES;
  return Buffer.concat([
    head,
    attribute(TAG.charset, 'attributes-charset', 'utf-8'),
    attribute(TAG.language, 'attributes-natural-language', 'en'),
    ...(printerUri ? [attribute(TAG.uri, 'printer-uri', printerUri)] : []),
    attribute(TAG.keyword, 'requested-attributes', first!),
    ...rest.map((a) => more(TAG.keyword, a)),
    Buffer.from([TAG.end]),
  ]);
}

export interface IppResponse {
  /** The status code (0x0000-0x00FF: successful, RFC 8011 §4.1.6.1). */
  status: number;
  /** One record per attribute group (a printer each, in CUPS-Get-Printers), name → values as text. */
  groups: { tag: number; attrs: Record<string, string[]> }[];
}

/** Decodes an IPP response; null when the bytes are not one. Integer and boolean values become decimal text. */
export function parseIpp(b: Buffer): IppResponse | null {
  if (b.length < 9 || b[0]! < 1 || b[0]! > 2) return null;
  const status = b.readUInt16BE(2);
  const groups: IppResponse['groups'] = [];
  let i = 8;
  let last = '';
  while (i < b.length) {
    const tag = b[i++]!;
    if (tag === TAG.end) return { status, groups };
    if (tag < 0x10) {
      groups.push({ tag, attrs: {} });
      continue;
    }
    if (i + 2 > b.length) return null;
    const nl = b.readUInt16BE(i);
    const name = b.toString('latin1', i + 2, i + 2 + nl);
    i += 2 + nl;
    if (i + 2 > b.length) return null;
    const vl = b.readUInt16BE(i);
    const raw = b.subarray(i + 2, i + 2 + vl);
    i += 2 + vl;
    if (i > b.length || !groups.length) return null;
    const value =
      tag === 0x21 || tag === 0x23
        ? String(raw.length === 4 ? raw.readInt32BE(0) : 0)
        : tag === 0x22
          ? String(raw[0] ? 1 : 0)
          : raw.toString('utf8');
    const key = name || last;
    last = key;
    const attrs = groups[groups.length - 1]!.attrs;
    (attrs[key] ??= []).push(value);
  }
  return null;
}

/** One IPP operation POSTed to `path`; the HTTP status and the decoded answer (null when not IPP). */
export async function ippAsk(
  net: Net,
  port: number,
  tls: boolean,
  path: string,
  body: Buffer,
  host?: string,
): Promise<{ http: number; ipp: IppResponse | null } | null> {
  const a = await httpRequest(net, port, tls, {
    method: 'POST',
    target: path,
    ...(host ? { host } : {}),
    headers: { 'Content-Type': 'application/ipp' },
    // The request is ASCII bytes only (tags and lengths below 0x80, ASCII values), which latin1 keeps as they are.
    body: body.toString('latin1'),
    maxBytes: 65536,
  });
  if (!a) return null;
  return { http: a.status, ipp: /application\/ipp/i.test(a.headers['content-type'] ?? '') ? parseIpp(a.raw) : null };
}

/**
 * The printers a server lists to anyone: CUPS-Get-Printers, else Get-Printer-Attributes of /ipp/print.
 * `host`: the Host header when not the address (cupsd takes only localhost from a loopback client, proto/cups.ts).
 */
export async function sharedPrinters(
  net: Net,
  port: number,
  tls: boolean,
  host?: string,
): Promise<{ operation: string; printers: Record<string, string[]>[] } | null> {
  const base = `ipp${tls ? 's' : ''}://${net.address.includes(':') ? `[${net.address}]` : net.address}:${port}`;
  const asks: [string, string, Buffer][] = [
    ['CUPS-Get-Printers', '/', ippRequest(0x4002, null)],
    ['Get-Printer-Attributes', '/ipp/print', ippRequest(0x000b, `${base}/ipp/print`)],
  ];
  for (const [operation, path, body] of asks) {
    const r = await ippAsk(net, port, tls, path, body, host);
    if (!r) return null;
    const printers = (r.ipp && r.ipp.status < 0x100 ? r.ipp.groups : [])
      .filter((g) => g.tag === 0x04 && g.attrs['printer-name']?.length)
      .map((g) => g.attrs);
    if (printers.length) return { operation: `${operation} (POST ${path})`, printers };
  }
  return null;
}
