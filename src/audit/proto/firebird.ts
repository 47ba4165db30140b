/**
 * Firebird's wire protocol (3.0+, protocol 13; XDR framing) and its SRP
 * login (the Srp plugin: SRP-6a over SHA-1 with Firebird's 1024-bit group,
 * src/auth/SecureRemotePassword/srp.cpp): op_connect carrying the client's
 * public key, op_cond_accept carrying the salt and the server's key, then
 * op_service_attach to the service manager with the client proof. The
 * status vector of the answer says whether the password was right
 * (isc_login, 335544472, when it was not). No database is opened; the
 * client detaches at once. Wire encryption is not negotiated: a server
 * with WireCrypt = Required is not asked.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Net } from '../engine/types.ts';
import { talk } from './talk.ts';

const OP = { connect: 1, attach: 19, accept: 3, reject: 4, response: 9, acceptData: 94, condAccept: 98 } as const;
const OP_SERVICE_ATTACH = 82;
const OP_SERVICE_DETACH = 83;
const ISC_LOGIN = 335544472;

/** srp.cpp: the group prime, generator 2 and the multiplier k = H(N, g padded to 128 bytes). */
const N = BigInt(
  '0xE67D2E994B2F900C3F41F08F5BB2627ED0D49EE1FE767A52EFCD565CD6E768812C3E1E9CE8F0A8BEA6CB13CD29DDEBF7A96D4A93B55D488DF099A15C89DCB0640738EB2CBDD9A8F7BAB561AB1B0DC1C6CDABF303264A08D1BCA932D1F1EE428B619D970F342ABA9A65793B8B2F041AE5364350C16F735F56ECBCA87BD57B29E7',
);
const G = 2n;
const K = 1277432915985975349439481660349303019122249719989n;

const mod = (a: bigint, m: bigint) => ((a % m) + m) % m;
function modPow(base: bigint, exp: bigint, m: bigint): bigint {
  let r = 1n;
  let b = mod(base, m);
  for (let e = exp; e > 0n; e >>= 1n) {
    if (e & 1n) r = (r * b) % m;
    b = (b * b) % m;
  }
  return r;
}
/** Minimal big-endian bytes, as Firebird's BigInteger::getBytes. */
const bytes = (n: bigint) => {
  const hex = n.toString(16);
  return Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
};
const sha1 = (...parts: (Buffer | bigint | string)[]) => {
  const h = createHash('sha1');
  for (const p of parts) h.update(typeof p === 'bigint' ? bytes(p) : p);
  return h.digest();
};
const big = (b: Buffer) => BigInt(`0x${b.toString('hex') || '0'}`);

/** The client proof M = H(H(N)^H(g) mod N, H(user), salt, A, B, K) for the Srp plugin. */
export function srpProof(user: string, password: string, salt: Buffer, a: bigint, A: bigint, B: bigint): Buffer {
  const u = big(sha1(A, B));
  const x = big(sha1(salt, sha1(`${user}:${password}`)));
  const base = mod(B - ((K * modPow(G, x, N)) % N), N);
  const session = sha1(modPow(base, mod(a + u * x, N), N));
  const n1 = modPow(big(sha1(N)), big(sha1(G)), N);
  return sha1(n1, sha1(user), salt, A, B, session);
}

// ---- XDR ---------------------------------------------------------------
const int = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
const opaque = (data: Buffer | string) => {
  const b = Buffer.from(data);
  return Buffer.concat([int(b.length), b, Buffer.alloc((4 - (b.length % 4)) % 4)]);
};

/** A reader over the bytes received so far; throws RangeError when they end (the caller waits for more). */
class Xdr {
  at = 0;
  constructor(readonly b: Buffer) {}
  int() {
    const v = this.b.readInt32BE(this.at);
    this.at += 4;
    return v;
  }
  opaque() {
    const len = this.int();
    if (this.at + len > this.b.length) throw new RangeError('short');
    const v = this.b.subarray(this.at, this.at + len);
    this.at += len + ((4 - (len % 4)) % 4);
    return v;
  }
}

/** CNCT_* user identification items (remote/protocol.h); specific data in numbered chunks of 254. */
function identification(user: string, publicKeyHex: string): Buffer {
  const item = (tag: number, v: Buffer | string) => {
    const b = Buffer.from(v);
    return Buffer.concat([Buffer.from([tag, b.length]), b]);
  };
  const chunks: Buffer[] = [];
  for (let i = 0, at = 0; at < publicKeyHex.length; i++, at += 254) {
    const part = Buffer.from(publicKeyHex.slice(at, at + 254));
    chunks.push(Buffer.concat([Buffer.from([7, part.length + 1, i]), part]));
  }
  return Buffer.concat([
    item(9, user), // CNCT_login
    item(8, 'Srp'), // CNCT_plugin_name
    item(10, 'Srp'), // CNCT_plugin_list
    ...chunks, // CNCT_specific_data
    item(11, Buffer.from([0, 0, 0, 0])), // CNCT_client_crypt: wire encryption off
    item(1, 'vigil'), // CNCT_user (the client's OS account)
    item(4, 'vigil'), // CNCT_host
    item(6, ''), // CNCT_user_verification
  ]);
}

/** op_connect: protocol 13 (FB_PROTOCOL_FLAG | 13), generic architecture, ptype 0-5, weight 8. */
function connect(user: string, A: bigint): Buffer {
  return Buffer.concat([
    int(OP.connect),
    int(OP.attach),
    int(3), // CONNECT_VERSION3
    int(1), // arch_generic
    opaque(''),
    int(1), // one protocol offered
    opaque(identification(user, bytes(A).toString('hex'))),
    Buffer.from('ffff800d00000001000000000000000500000008', 'hex'),
  ]);
}

/** The codes of an op_response status vector (isc_arg_gds items; strings and numbers skipped). */
function statusCodes(x: Xdr): number[] {
  const codes: number[] = [];
  for (let arg = x.int(); arg !== 0; arg = x.int()) {
    if (arg === 1 || arg === 4) {
      const v = x.int();
      if (arg === 1) codes.push(v);
    } else x.opaque(); // isc_arg_string, cstring, interpreted, sql_state …
  }
  return codes;
}

/** Parses op_response: object handle, blob id, data, status vector; null while incomplete. */
function response(b: Buffer): { handle: number; codes: number[] } | null {
  try {
    const x = new Xdr(b);
    if (x.int() !== OP.response) return { handle: 0, codes: [-1] };
    const handle = x.int();
    x.at += 8;
    x.opaque();
    return { handle, codes: statusCodes(x) };
  } catch {
    return null;
  }
}

/**
 * Detection's question: op_connect for a SYSDBA Srp login (nothing is attached), and the server's answer,
 * op_accept / op_accept_data / op_cond_accept (with the protocol version it chose) or op_reject; null when
 * the reply is not one of those.
 */
export const firebirdHello = () => connect('SYSDBA', modPow(G, big(randomBytes(16)), N));
export function firebirdAnswer(b: Buffer): { op: 'accept' | 'reject'; version: number | null } | null {
  if (b.length < 4) return null;
  const op = b.readInt32BE(0);
  if (op === OP.reject) return { op: 'reject', version: null };
  if ((op !== OP.accept && op !== OP.acceptData && op !== OP.condAccept) || b.length < 16) return null;
  // Version: FB_PROTOCOL_FLAG (0x8000) | n, or a plain 10 from old servers; architecture 1 (generic).
  const version = b.readInt32BE(4);
  return b.readInt32BE(8) === 1 && (version & 0x7fff) >= 10 && (version & 0x7fff) <= 20
    ? { op: 'accept', version: version & 0xff }
    : null;
}

export type FirebirdLogin =
  | { outcome: 'accepted' | 'refused'; version: number; codes: number[] }
  | { outcome: 'not-srp'; op: number };

/** One Srp login to the service manager; null when the port does not speak Firebird's protocol. */
export function firebirdLogin(net: Net, port: number, user: string, password: string): Promise<FirebirdLogin | null> {
  const a = big(randomBytes(16)); // srp.cpp: a 128-bit private key
  const A = modPow(G, a, N);
  const upper = user.toUpperCase();
  return talk(net, port, async (c) => {
    const accepted = (b: Buffer) => {
      try {
        const x = new Xdr(b);
        const op = x.int();
        if (op !== OP.condAccept && op !== OP.acceptData) return true;
        x.at += 12;
        x.opaque();
        x.opaque();
        x.int();
        x.opaque();
        return true;
      } catch {
        return false;
      }
    };
    // 10 s a step: the first attach opens the security database, and a loaded server took over 4 s (a CI run).
    const r = await c.ask(connect(upper, A), 10_000, accepted);
    if (r.length < 4) return null;
    const x = new Xdr(r);
    const op = x.int();
    // op_accept: a server without the Srp plugin (Legacy_Auth only); op_reject: no protocol in common.
    if (op !== OP.condAccept && op !== OP.acceptData)
      return op === OP.reject || op === OP.accept ? { outcome: 'not-srp', op } : null;
    const version = x.int() & 0xff;
    x.at += 8; // architecture, type
    const data = x.opaque();
    if (x.opaque().toString() !== 'Srp' || data.length < 4) return { outcome: 'not-srp', op };
    const saltLen = data.readUInt16LE(0);
    const salt = data.subarray(2, 2 + saltLen); // the salt's hex text, hashed as text
    const B = big(Buffer.from(data.subarray(4 + saltLen).toString('latin1'), 'hex'));
    const proof = srpProof(upper, password, salt, a, A, B).toString('hex');
    const spb = Buffer.concat([
      Buffer.from([2, 2]), // isc_spb_version, isc_spb_current_version
      Buffer.from([28, upper.length]), // isc_spb_user_name
      Buffer.from(upper),
      Buffer.from([111, proof.length]), // isc_spb_specific_auth_data (ibase.h: the tag of isc_spb_trusted_auth)
      Buffer.from(proof),
    ]);
    const attach = Buffer.concat([int(OP_SERVICE_ATTACH), int(0), opaque('service_mgr'), opaque(spb)]);
    const r2 = response(await c.ask(attach, 10_000, (b) => response(b) !== null));
    if (!r2 || r2.codes[0] === -1) return null;
    const ok = r2.codes.every((code) => code === 0);
    if (ok) c.send(Buffer.concat([int(OP_SERVICE_DETACH), int(r2.handle)]));
    return { outcome: ok ? 'accepted' : 'refused', version, codes: r2.codes };
  });
}

/** isc_login: "Your user name and password are not defined". */
export const isLoginRefusal = (codes: readonly number[]) => codes.includes(ISC_LOGIN);
