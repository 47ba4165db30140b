/**
 * Kerberos V5 (RFC 4120) as a client of a KDC speaks it before any key is
 * known: an AS-REQ without pre-authentication (§5.4.1), and what comes back,
 * a KRB-ERROR (§5.9.1) or an AS-REP (§5.4.2), of which only the clear parts
 * are read (the realm, names, error code, the enc-part's etype and length;
 * the cipher itself is never kept). Over UDP, or TCP with its 4-byte length
 * prefix (§7.2.2).
 *
 * DER of our own (the TLV helpers LDAP and SNMP share, ldap.ts) rather than
 * an ASN.1 library: asn1js (PeculiarVentures, well kept, already installed
 * under selfsigned's pkijs) would need a schema for each of the three
 * messages, more code than the dozen fields written and read here, and a
 * declared dependency for it.
 */
import type { Net } from '../engine/types.ts';
import { children, readTlv, type Tlv, tlv } from './ldap.ts';
import { talk, udpAsk } from './talk.ts';

/** Error codes a KDC answers an AS-REQ with (RFC 4120 §7.5.9). */
export const KDC_ERR = {
  C_PRINCIPAL_UNKNOWN: 6,
  PREAUTH_REQUIRED: 25,
  FIELD_TOOLONG: 61,
  WRONG_REALM: 68,
} as const;

/**
 * Errors a KDC gives only for a principal it holds: POLICY (12), ETYPE_NOSUPP (14: no key of the etypes asked),
 * CLIENT_REVOKED (18: disabled or locked), KEY_EXPIRED (23), PREAUTH_FAILED (24), PREAUTH_REQUIRED (25).
 */
export const PRINCIPAL_EXISTS: ReadonlySet<number> = new Set([12, 14, 18, 23, 24, 25]);

const ERROR_NAMES: Record<number, string> = {
  6: 'KDC_ERR_C_PRINCIPAL_UNKNOWN',
  7: 'KDC_ERR_S_PRINCIPAL_UNKNOWN',
  12: 'KDC_ERR_POLICY',
  14: 'KDC_ERR_ETYPE_NOSUPP',
  18: 'KDC_ERR_CLIENT_REVOKED',
  23: 'KDC_ERR_KEY_EXPIRED',
  24: 'KDC_ERR_PREAUTH_FAILED',
  25: 'KDC_ERR_PREAUTH_REQUIRED',
  60: 'KRB_ERR_GENERIC',
  61: 'KRB_ERR_FIELD_TOOLONG',
  68: 'KDC_ERR_WRONG_REALM',
};
export const errorName = (code: number) => `${ERROR_NAMES[code] ?? 'error'} (${code})`;

/** Encryption types (RFC 3961 §8, RFC 4757, RFC 8009): what an AS-REP's enc-part is sealed with. */
const ETYPE_NAMES: Record<number, string> = {
  1: 'des-cbc-crc',
  3: 'des-cbc-md5',
  16: 'des3-cbc-sha1',
  17: 'aes128-cts-hmac-sha1-96',
  18: 'aes256-cts-hmac-sha1-96',
  19: 'aes128-cts-hmac-sha256-128',
  20: 'aes256-cts-hmac-sha384-192',
  23: 'rc4-hmac',
  25: 'camellia128-cts-cmac',
  26: 'camellia256-cts-cmac',
};
export const etypeName = (n: number) => `${ETYPE_NAMES[n] ?? 'etype'} (${n})`;
/** What a current kinit offers, strongest first, then RC4 for the older KDCs that still hold only such keys. */
const OFFERED = [18, 17, 20, 19, 23];
/**
 * Encryption types broken or weak for a long-term key: single DES (RFC 6649 deprecates it), 3DES (RFC 8429), RC4
 * (RFC 8429; its key is the account's unsalted NT hash, so one cracked or stolen hash serves everywhere).
 */
export const WEAK_ETYPES: readonly number[] = [23, 24, 16, 3, 1];

/** Name types (§6.2): NT-PRINCIPAL for users, NT-SRV-INST for service/instance names such as kadmin/changepw. */
export const NT_PRINCIPAL = 1;
export const NT_SRV_INST = 2;

function intBytes(n: number): Buffer {
  const out: number[] = [];
  let v = Math.max(0, Math.floor(n));
  do {
    out.unshift(v & 0xff);
    v = Math.floor(v / 256);
  } while (v > 0);
  if (out[0]! & 0x80) out.unshift(0); // DER INTEGER is two's complement: a set high bit needs a 0 before it
  return Buffer.from(out);
}
const ctx = (n: number, ...body: Buffer[]) => tlv(0xa0 + n, ...body);
const int = (n: number) => tlv(0x02, intBytes(n));
/** KerberosString is a GeneralString (§5.2.1). */
const kstr = (s: string) => tlv(0x1b, Buffer.from(s, 'utf8'));
const principal = (type: number, names: readonly string[]) =>
  tlv(0x30, ctx(0, int(type)), ctx(1, tlv(0x30, ...names.map(kstr))));

export interface AsReq {
  realm: string;
  /** The client's name components: ['alice'], ['kadmin', 'changepw']. */
  name: readonly string[];
  nameType: number;
  nonce: number;
  /** The etypes offered (§5.4.1 etype); a current kinit's list when unset. */
  etypes?: readonly number[];
}

/**
 * AS-REQ [APPLICATION 10] for a TGT (sname krbtgt/REALM), no padata: what
 * kinit sends first, and what a KDC answers with PREAUTH_REQUIRED for a
 * principal that needs pre-authentication.
 */
export function asReq(r: AsReq): Buffer {
  const body = tlv(
    0x30,
    // forwardable and renewable-ok (§5.4.1 KDCOptions bits 1 and 27); renewable itself would want an rtime
    ctx(0, tlv(0x03, Buffer.from([0, 0x40, 0x00, 0x00, 0x10]))),
    ctx(1, principal(r.nameType, r.name)),
    ctx(2, kstr(r.realm)),
    ctx(3, principal(NT_SRV_INST, ['krbtgt', r.realm])),
    ctx(5, tlv(0x18, Buffer.from('20370913024805Z'))),
    ctx(7, int(r.nonce & 0x7fffffff)), // UInt32 on the wire; 31 bits keep it one that every decoder reads
    ctx(8, tlv(0x30, ...(r.etypes ?? OFFERED).map(int))),
  );
  return tlv(0x6a, tlv(0x30, ctx(1, int(5)), ctx(2, int(10)), ctx(4, body)));
}

export type KdcReply =
  | {
      kind: 'error';
      code: number;
      /** The `realm` field: the realm of the server named in the error (sname). */
      realm: string;
      sname: string[];
      /** The `crealm` field: in a WRONG_REALM referral, the realm to ask (RFC 6806 §4). */
      crealm: string | null;
      text: string | null;
      /** The etypes of PA-ETYPE-INFO2 (or PA-ETYPE-INFO) in the e-data: the keys the KDC holds for the client among those offered (§5.2.7.5). */
      keyEtypes: number[];
    }
  | {
      kind: 'as-rep';
      crealm: string;
      cname: string[];
      /** The enc-part's etype and cipher length: what proves a key-derived reply, without keeping the cipher. */
      etype: number;
      cipherBytes: number;
    };

const fields = (b: Buffer, seq: Tlv) => {
  const out = new Map<number, Tlv>();
  for (const c of children(b, seq)) {
    const inner = c.tag >= 0xa0 && c.tag <= 0xbf ? readTlv(b, c.start) : null;
    if (inner) out.set(c.tag - 0xa0, inner);
  }
  return out;
};
const readInt = (b: Buffer, t: Tlv | undefined) =>
  t && t.tag === 0x02 && t.end > t.start && t.end - t.start <= 6 ? b.readIntBE(t.start, t.end - t.start) : null;
const readStr = (b: Buffer, t: Tlv | undefined) => (t ? b.subarray(t.start, t.end).toString('utf8') : null);
function readPrincipal(b: Buffer, t: Tlv | undefined): string[] {
  if (!t || t.tag !== 0x30) return [];
  const seq = fields(b, t).get(1);
  return seq?.tag === 0x30 ? children(b, seq).map((s) => readStr(b, s) ?? '') : [];
}

/**
 * e-data of a PREAUTH_REQUIRED error: METHOD-DATA, a SEQUENCE OF PA-DATA { padata-type [1], padata-value [2] };
 * PA-ETYPE-INFO2 (19) and PA-ETYPE-INFO (11) values are SEQUENCE OF { etype [0], salt [1] … } (§5.2.7.4-5).
 */
function keyEtypes(b: Buffer, eData: Tlv | undefined): number[] {
  const methods = eData?.tag === 0x04 ? readTlv(b, eData.start) : null;
  if (!methods || methods.tag !== 0x30) return [];
  const out: number[] = [];
  for (const pa of children(b, methods)) {
    const f = pa.tag === 0x30 ? fields(b, pa) : null;
    const type = readInt(b, f?.get(1));
    const value = f?.get(2);
    const list = value?.tag === 0x04 && (type === 19 || type === 11) ? readTlv(b, value.start) : null;
    if (!list || list.tag !== 0x30) continue;
    for (const entry of children(b, list)) {
      const etype = entry.tag === 0x30 ? readInt(b, fields(b, entry).get(0)) : null;
      if (etype !== null && !out.includes(etype)) out.push(etype);
    }
  }
  return out;
}

/** A KRB-ERROR or AS-REP, or null for anything else. */
export function parseKdcReply(b: Buffer): KdcReply | null {
  const top = readTlv(b, 0);
  const seq = top && readTlv(b, top.start);
  if (!top || !seq || seq.tag !== 0x30) return null;
  const f = fields(b, seq);
  if (top.tag === 0x7e) {
    // KRB-ERROR [APPLICATION 30]: msg-type [1] = 30, error-code [6], crealm [7], realm [9], sname [10], e-text [11]
    const code = readInt(b, f.get(6));
    if (readInt(b, f.get(1)) !== 30 || code === null) return null;
    return {
      kind: 'error',
      code,
      realm: readStr(b, f.get(9)) ?? '',
      sname: readPrincipal(b, f.get(10)),
      crealm: readStr(b, f.get(7)),
      text: readStr(b, f.get(11)),
      keyEtypes: keyEtypes(b, f.get(12)),
    };
  }
  if (top.tag === 0x6b) {
    // AS-REP [APPLICATION 11]: msg-type [1] = 11, crealm [3], cname [4], enc-part [6] = { etype [0], cipher [2] }
    const enc = f.get(6);
    const e = enc?.tag === 0x30 ? fields(b, enc) : null;
    const etype = readInt(b, e?.get(0));
    const cipher = e?.get(2);
    if (readInt(b, f.get(1)) !== 11 || etype === null || !cipher) return null;
    return {
      kind: 'as-rep',
      crealm: readStr(b, f.get(3)) ?? '',
      cname: readPrincipal(b, f.get(4)),
      etype,
      cipherBytes: cipher.end - cipher.start,
    };
  }
  return null;
}

/** A message as TCP carries it: a 4-byte big-endian length first (§7.2.2). */
export function tcpFrame(msg: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(msg.length);
  return Buffer.concat([len, msg]);
}
/** Whole once the 4-byte length prefix and that many bytes are in. */
export const framed = (b: Buffer) => b.length >= 4 && b.length >= 4 + b.readUInt32BE(0);
export const unframe = (b: Buffer) => (framed(b) ? b.subarray(4, 4 + b.readUInt32BE(0)) : null);

/** One message to the KDC and its reply, over UDP or TCP; null on silence or anything unreadable. */
export async function kdcAsk(
  net: Net,
  port: number,
  transport: 'tcp' | 'udp',
  msg: Buffer,
  timeoutMs = 2500,
): Promise<KdcReply | null> {
  if (transport === 'udp') {
    const r = await udpAsk(net, port, msg, { timeoutMs });
    return r ? parseKdcReply(r) : null;
  }
  const r = await talk(net, port, (c) => c.ask(tcpFrame(msg), timeoutMs, framed), timeoutMs + 500);
  const body = r && unframe(r);
  return body ? parseKdcReply(body) : null;
}

/**
 * RFC 4120 §7.2.2: a length with its high bit set must be answered with
 * KRB_ERR_FIELD_TOOLONG. MIT's KDC names its own realm's TGS as the error's
 * server (kdc_util.c make_toolong_error: krbtgt/REALM@REALM), the one answer
 * that tells a realm to a client that knows none; Heimdal's leaves it
 * "<unspecified realm>". Eight bytes: MIT reads the 4-byte length alone,
 * Heimdal looks at a buffer of more than four (connect.c handle_tcp).
 */
export async function kdcRealmHint(net: Net, port: number): Promise<string | null> {
  const r = await talk(net, port, (c) => c.ask(Buffer.from([0x80, 0, 0, 0, 0, 0, 0, 0]), 2500, framed));
  const reply = r && unframe(r);
  const e = reply ? parseKdcReply(reply) : null;
  if (e?.kind !== 'error' || e.code !== KDC_ERR.FIELD_TOOLONG) return null;
  return realmLike(e.realm) ? e.realm : null;
}

/** A realm as labs and companies name them (Heimdal's "<unspecified realm>" is not one). */
export const realmLike = (s: string | null): s is string => !!s && /^[\w.-]{1,255}$/.test(s);
