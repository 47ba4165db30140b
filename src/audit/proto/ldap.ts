/**
 * An anonymous LDAPv3 bind and two searches (RFC 4511): the root DSE's
 * namingContexts, then a subtree search of the first context. A minimal BER
 * of our own rather than an LDAP client such as ldapts: those open their
 * own sockets, and every contact here must go through the fence's Net with
 * bounded reads; three fixed messages and a TLV walk are all it takes.
 */
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

function len(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  if (n < 0x100) return Buffer.from([0x81, n]);
  return Buffer.from([0x82, n >> 8, n & 0xff]);
}
/** A BER/DER TLV (short or long definite length); Kerberos messages share it (krb5.ts). */
export const tlv = (tag: number, ...body: Buffer[]) => {
  const b = Buffer.concat(body);
  return Buffer.concat([Buffer.from([tag]), len(b.length), b]);
};
const int = (tag: number, n: number) => tlv(tag, Buffer.from([n]));
const str = (s: string, tag = 0x04) => tlv(tag, Buffer.from(s, 'utf8'));
const message = (id: number, op: Buffer) => tlv(0x30, int(0x02, id), op);

/** BindRequest [APPLICATION 0]: version 3, empty name, simple [0] empty password = anonymous (RFC 4513 §5.1.1). */
const BIND = message(1, tlv(0x60, int(0x02, 3), str(''), str('', 0x80)));

/** SearchRequest [APPLICATION 3]: filter (objectClass=*) is "present" [7]. */
function search(id: number, base: string, scope: 0 | 2, sizeLimit: number, attrs: string[]): Buffer {
  return message(
    id,
    tlv(
      0x63,
      str(base),
      int(0x0a, scope),
      int(0x0a, 0),
      int(0x02, sizeLimit),
      int(0x02, 10),
      tlv(0x01, Buffer.from([0])),
      str('objectClass', 0x87),
      tlv(0x30, ...attrs.map((a) => str(a))),
    ),
  );
}

export interface Tlv {
  tag: number;
  start: number;
  end: number;
}

/** The TLV at `at`, or null if the buffer does not hold it whole. */
export function readTlv(b: Buffer, at: number): Tlv | null {
  if (at + 2 > b.length) return null;
  let l = b[at + 1]!;
  let start = at + 2;
  if (l & 0x80) {
    const n = l & 0x7f;
    if (n < 1 || n > 4 || start + n > b.length) return null;
    l = b.readUIntBE(start, n);
    start += n;
  }
  return start + l <= b.length ? { tag: b[at]!, start, end: start + l } : null;
}

/** The TLVs directly inside `t`. */
export const children = (b: Buffer, t: Tlv) => {
  const out: Tlv[] = [];
  for (let at = t.start; at < t.end; ) {
    const c = readTlv(b, at);
    if (!c || c.end > t.end) break;
    out.push(c);
    at = c.end;
  }
  return out;
};

/** The protocol ops of every whole LDAPMessage in `b`. */
function ops(b: Buffer): Tlv[] {
  const out: Tlv[] = [];
  for (let at = 0; at < b.length; ) {
    const m = readTlv(b, at);
    if (!m || m.tag !== 0x30) break;
    const op = children(b, m)[1];
    if (op) out.push(op);
    at = m.end;
  }
  return out;
}

const hasOp = (tag: number) => (b: Buffer) => ops(b).some((o) => o.tag === tag);
const resultCode = (b: Buffer, op: Tlv) => {
  const c = children(b, op)[0];
  return c && c.tag === 0x0a ? b[c.start]! : -1;
};

export interface LdapRead {
  base: string;
  entries: number;
  sample: string;
}

/** null: not LDAP or the bind was refused; entries 0: bound but nothing readable. */
export function ldapAnonymousRead(net: Net, port: number): Promise<LdapRead | null> {
  return talk(net, port, async (c) => {
    const bound = await c.ask(BIND, 3000, hasOp(0x61));
    const br = ops(bound).find((o) => o.tag === 0x61);
    if (!br || resultCode(bound, br) !== 0) return null;
    const dse = await c.ask(search(2, '', 0, 1, ['namingContexts']), 3000, hasOp(0x65));
    const contexts: string[] = [];
    for (const e of ops(dse).filter((o) => o.tag === 0x64)) {
      for (const attr of children(dse, children(dse, e)[1] ?? { tag: 0, start: 0, end: 0 })) {
        const [type, vals] = children(dse, attr);
        if (!type || !vals || dse.subarray(type.start, type.end).toString('utf8').toLowerCase() !== 'namingcontexts')
          continue;
        for (const v of children(dse, vals)) contexts.push(dse.subarray(v.start, v.end).toString('utf8'));
      }
    }
    const base = contexts.find((x) => x && !/^cn=(config|monitor|schema)/i.test(x));
    if (!base) return { base: '(none)', entries: 0, sample: '' };
    const found = await c.ask(search(3, base, 2, 5, ['1.1']), 4000, hasOp(0x65));
    const entries = ops(found).filter((o) => o.tag === 0x64);
    const dns = entries.map((e) => {
      const dn = children(found, e)[0];
      return dn ? found.subarray(dn.start, dn.end).toString('utf8') : '';
    });
    // The naming context's own entry alone says little (some directories publish it on purpose): data means
    // entries below it.
    const below = dns.filter((dn) => dn && dn.toLowerCase() !== base.toLowerCase());
    return { base, entries: below.length, sample: below.slice(0, 3).join('; ') };
  });
}
