/**
 * A PostgreSQL password login (protocol 3.0, "Authentication message
 * flow"): cleartext (AuthenticationCleartextPassword, 3), MD5 (5) and
 * SCRAM-SHA-256 (10, RFC 5802 / RFC 7677 as PostgreSQL speaks it: no
 * channel binding, empty user name in the client-first message). True when
 * AuthenticationOk follows; the session is closed right after, no query.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import type { Net } from '../engine/types.ts';
import { pgMessageDone, pgStartup } from './postgresql.ts';
import { talk } from './talk.ts';

/** A server may ask for any iteration count: above this the login is not attempted (CPU the target would make us burn). */
const MAX_ITERATIONS = 100_000;

const message = (type: string, body: Buffer) => {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([head, body]);
};
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};
/** An authentication request: its code, and its payload. */
const auth = (r: Buffer) =>
  r.length >= 9 && r[0] === 0x52 ? { code: r.readInt32BE(5), data: r.subarray(9, 1 + r.readInt32BE(1)) } : null;
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest();
const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();

export function pgPasswordLogin(net: Net, port: number, user: string, password: string): Promise<boolean | null> {
  return talk(
    net,
    port,
    async (c) => {
      const first = auth(await c.ask(pgStartup(user), 5000, pgMessageDone));
      if (!first) return null;
      let reply: ReturnType<typeof auth>;
      if (first.code === 0) return null; // trust: no password asked (vigil.postgresql.trust reports that)
      if (first.code === 3) reply = auth(await c.ask(message('p', Buffer.from(`${password}\0`)), 5000, pgMessageDone));
      else if (first.code === 5) {
        const inner = createHash('md5').update(`${password}${user}`).digest('hex');
        const outer = createHash('md5').update(Buffer.concat([Buffer.from(inner), first.data.subarray(0, 4)]));
        reply = auth(await c.ask(message('p', Buffer.from(`md5${outer.digest('hex')}\0`)), 5000, pgMessageDone));
      } else if (first.code === 10 && first.data.toString('latin1').split('\0').includes('SCRAM-SHA-256')) {
        reply = await scram(c, password);
      } else return null;
      const ok = reply?.code === 0;
      if (ok) c.send(Buffer.from([0x58, 0, 0, 0, 4])); // Terminate
      return ok;
    },
    10_000,
  );
}

async function scram(c: import('./conv.ts').Conv, password: string) {
  const nonce = randomBytes(18).toString('base64');
  const clientFirstBare = `n=,r=${nonce}`;
  const initial = Buffer.from(`n,,${clientFirstBare}`);
  const body = Buffer.concat([Buffer.from('SCRAM-SHA-256\0'), int32(initial.length), initial]);
  const cont = auth(await c.ask(message('p', body), 5000, pgMessageDone));
  if (cont?.code !== 11) return null;
  const serverFirst = cont.data.toString('latin1');
  const attrs = Object.fromEntries(serverFirst.split(',').map((kv) => [kv[0], kv.slice(2)]));
  const iterations = Number(attrs.i);
  if (!attrs.r?.startsWith(nonce) || !attrs.s || !(iterations > 0 && iterations <= MAX_ITERATIONS)) return null;
  const salted = pbkdf2Sync(password.normalize('NFKC'), Buffer.from(attrs.s, 'base64'), iterations, 32, 'sha256');
  const clientKey = hmac(salted, 'Client Key');
  const finalBare = `c=biws,r=${attrs.r}`;
  const signature = hmac(sha256(clientKey), `${clientFirstBare},${serverFirst},${finalBare}`);
  const proof = Buffer.from(clientKey.map((x, i) => x ^ signature[i]!)).toString('base64');
  // SASLFinal (12) and AuthenticationOk (0) may come in one read: both are looked for.
  const r = await c.ask(message('p', Buffer.from(`${finalBare},p=${proof}`)), 5000, (b) => {
    const a = auth(b);
    return (
      (!!a && (a.code !== 12 || b.length >= 1 + b.readInt32BE(1) + 9)) ||
      (b.length > 0 && b[0] === 0x45 && pgMessageDone(b))
    );
  });
  const fin = auth(r);
  if (fin?.code !== 12) return fin;
  return auth(r.subarray(1 + r.readInt32BE(1)));
}
