/**
 * NIS (YP, RPC program 100004 version 2; yp.x as Sun, glibc/libnsl and
 * Debian's ypserv ship it): a domain's maps (passwd.byname, hosts.byname,
 * group.byname, …) handed to any client that names the domain. ypserv has
 * no well-known port: it is asked of the portmapper. Procedures used:
 * YPPROC_DOMAIN (1: does this server serve the domain?), YPPROC_FIRST (4)
 * and YPPROC_NEXT (5: a map's records in order), YPPROC_MAPLIST (11).
 */
import type { Net } from '../engine/types.ts';
import { pmapGetPort, rpcCall, Xdr, xdrString } from './rpc.ts';

export const YPPROG = 100004;
const YPVERS = 2;
/** ypstat (yp.x): YP_TRUE 1, YP_NOMORE 2, YP_FALSE 0, YP_NOMAP -1, YP_NODOM -2, YP_NOKEY -3, … */
const YP_TRUE = 1;

export interface Ypserv {
  port: number;
  proto: 'udp' | 'tcp';
}

/** Where ypserv listens, asked of the portmapper on `pmapPort`: UDP first, as ypbind asks. */
export async function findYpserv(net: Net, pmapPort: number): Promise<Ypserv | null> {
  for (const proto of ['udp', 'tcp'] as const) {
    const port = await pmapGetPort(net, pmapPort, YPPROG, YPVERS, proto);
    if (port === null) return null; // the portmapper refuses or is silent
    if (port) return { port, proto };
  }
  return null;
}

const call = (net: Net, yp: Ypserv, proc: number, args: Buffer) =>
  rpcCall(net, yp.port, yp.proto, YPPROG, YPVERS, proc, args);

/** YPPROC_DOMAIN: true only when the server says it serves `domain` (a refusal or silence is null). */
export async function servesDomain(net: Net, yp: Ypserv, domain: string): Promise<boolean | null> {
  const r = await call(net, yp, 1, xdrString(domain));
  if (r?.status !== 'success' || r.body.length < 4) return null;
  return r.body.readUInt32BE(0) === 1;
}

/** YPPROC_MAPLIST: the domain's map names, or null when not answered with YP_TRUE. */
export async function mapList(net: Net, yp: Ypserv, domain: string): Promise<string[] | null> {
  const r = await call(net, yp, 11, xdrString(domain));
  if (r?.status !== 'success') return null;
  try {
    const x = new Xdr(r.body);
    if (x.u32() !== YP_TRUE) return null;
    // ypmaplist *maps: an XDR optional-data chain (bool, then {mapname, next}).
    const maps: string[] = [];
    while (x.u32() === 1 && maps.length < 200) maps.push(x.string(64));
    return maps;
  } catch {
    return null;
  }
}

export interface YpRecord {
  key: string;
  value: string;
}

/** ypresp_key_val {stat, valdat val, keydat key} (yp.x puts the value first), or null unless YP_TRUE. */
function keyVal(body: Buffer): YpRecord | null {
  try {
    const x = new Xdr(body);
    if (x.u32() !== YP_TRUE) return null;
    const value = x.string(1024);
    return { key: x.string(1024), value };
  } catch {
    return null;
  }
}

/** The first `max` records of a map (YPPROC_FIRST, then YPPROC_NEXT), or null when the first is refused. */
export async function firstRecords(
  net: Net,
  yp: Ypserv,
  domain: string,
  map: string,
  max = 3,
): Promise<YpRecord[] | null> {
  const nokey = Buffer.concat([xdrString(domain), xdrString(map)]);
  const first = await call(net, yp, 4, nokey);
  const rec = first?.status === 'success' ? keyVal(first.body) : null;
  if (!rec) return null;
  const out = [rec];
  while (out.length < max) {
    const next = await call(net, yp, 5, Buffer.concat([nokey, xdrString(out[out.length - 1]!.key)]));
    const r = next?.status === 'success' ? keyVal(next.body) : null;
    if (!r) break;
    out.push(r);
  }
  return out;
}
