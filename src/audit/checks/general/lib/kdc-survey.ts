/**
 * What a KDC tells anyone about its principals, asked once per port and
 * audit and shared by the two Kerberos checks (kerberos-asrep-roast.ts,
 * kerberos-user-enum.ts): the engine hands every check of a host the same
 * Net (engine/run.ts), so the second check reuses the first one's answers.
 *
 * 1. The realm. A KDC answers a name in a realm it does not serve with
 *    KDC_ERR_C_PRINCIPAL_UNKNOWN, as it does an absent name, so a realm is
 *    confirmed by a principal every KDC has: kadmin/changepw (MIT's
 *    kdb5_util create and Heimdal's kadmin init make it), or krbtgt as an
 *    account (Active Directory's, disabled: CLIENT_REVOKED). Candidates, in
 *    order: the realm in MIT's FIELD_TOOLONG answer (proto/krb5.ts
 *    kdcRealmHint), the host's own names uppercased (banners, certificates:
 *    dns/lib/zones.ts namesSeen), then a short list of usual realms. A KDC
 *    that refers the name to another realm (KDC_ERR_WRONG_REALM with a
 *    crealm, RFC 6806 §4) has that realm tried next.
 * 2. A control: a random name must be answered C_PRINCIPAL_UNKNOWN, else
 *    (a KDC with vague errors, or one answering every name alike) no answer
 *    says anything about a name and nothing is reported.
 * 3. Each candidate name of data/auth-services.ts: an AS-REP proves the
 *    principal needs no pre-authentication; an error only a held principal
 *    gets (PREAUTH_REQUIRED, CLIENT_REVOKED …: krb5.ts PRINCIPAL_EXISTS)
 *    proves it exists; anything else says nothing.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { HostFacts, Net } from '../../../engine/types.ts';
import {
  asReq,
  errorName,
  KDC_ERR,
  kdcAsk,
  kdcRealmHint,
  type KdcReply,
  NT_PRINCIPAL,
  NT_SRV_INST,
  PRINCIPAL_EXISTS,
  realmLike,
  WEAK_ETYPES,
} from '../../../proto/krb5.ts';
import { KERBEROS_NAMES, KERBEROS_REALMS } from '../../data/auth-services.ts';
import { namesSeen } from '../../dns/lib/zones.ts';

export interface KdcSurvey {
  realm: string;
  /** How the realm was learnt, for the finding's detail. */
  realmFrom: string;
  transport: 'tcp' | 'udp';
  /** Names whose AS-REQ without pre-authentication got an AS-REP. */
  roastable: { name: string; crealm: string; cname: string; etype: number; cipherBytes: number }[];
  /** Names answered with an error only a held principal gets (PREAUTH_REQUIRED mostly). */
  existing: { name: string; code: number }[];
  /** How many candidate names were asked. */
  asked: number;
  /**
   * A principal the KDC holds a weak key for (DES, 3DES, RC4): offered only those etypes, it answered with
   * them in PA-ETYPE-INFO2 or sealed an AS-REP with one; null when it refused them (ETYPE_NOSUPP) for every name tried.
   */
  weakKeys: { name: string; etypes: number[]; answer: string } | null;
}

/** At most this many realms are confirmed or ruled out (two requests each at most). */
const MAX_REALMS = 12;

const surveys = new WeakMap<Net, Map<string, Promise<KdcSurvey | null>>>();

export function kdcSurvey(
  net: Net,
  port: number,
  transport: 'tcp' | 'udp',
  host: HostFacts,
): Promise<KdcSurvey | null> {
  let byPort = surveys.get(net);
  if (!byPort) surveys.set(net, (byPort = new Map()));
  const key = `${transport}/${port}`;
  let s = byPort.get(key);
  if (!s) byPort.set(key, (s = survey(net, port, transport, host).catch(() => null)));
  return s;
}

/** Realms worth trying, each with how it was found. */
async function realmCandidates(net: Net, port: number, transport: 'tcp' | 'udp', host: HostFacts) {
  const out = new Map<string, string>();
  const hint = transport === 'tcp' ? await kdcRealmHint(net, port) : null;
  if (hint) out.set(hint, "named by the KDC's own KRB_ERR_FIELD_TOOLONG answer (RFC 4120 §7.2.2)");
  for (const name of namesSeen(host)) {
    const labels = name.toUpperCase().split('.');
    for (let k = 0; k + 2 <= labels.length; k++) {
      const realm = labels.slice(k).join('.');
      if (!out.has(realm)) out.set(realm, `from the host name ${name} the audit saw`);
    }
  }
  for (const realm of KERBEROS_REALMS) if (!out.has(realm)) out.set(realm, 'a usual realm name');
  return [...out];
}

async function survey(net: Net, port: number, transport: 'tcp' | 'udp', host: HostFacts): Promise<KdcSurvey | null> {
  const ask = (realm: string, name: string[], nameType = NT_PRINCIPAL) =>
    kdcAsk(net, port, transport, asReq({ realm, name, nameType, nonce: randomInt(2 ** 31) }));
  const unknown = (r: KdcReply | null) => r?.kind === 'error' && r.code === KDC_ERR.C_PRINCIPAL_UNKNOWN;
  const held = (r: KdcReply | null) => r?.kind === 'as-rep' || (r?.kind === 'error' && PRINCIPAL_EXISTS.has(r.code));

  let realm: [string, string] | null = null;
  const candidates = await realmCandidates(net, port, transport, host);
  for (let i = 0; i < candidates.length && i < MAX_REALMS; i++) {
    const [asked] = candidates[i]!;
    const first = await ask(asked, ['kadmin', 'changepw'], NT_SRV_INST);
    if (!first) return null; // silent: not a KDC (or not to us); no point in asking further
    const replies = held(first) ? [first] : [first, await ask(asked, ['krbtgt'])];
    if (replies.some(held)) {
      realm = candidates[i]!;
      break;
    }
    const referred = replies
      .map((r) => (r?.kind === 'error' && r.code === KDC_ERR.WRONG_REALM && realmLike(r.crealm) ? r.crealm : null))
      .find((r) => r && r !== asked && !candidates.some(([c]) => c === r));
    if (referred) candidates.splice(i + 1, 0, [referred, `the realm the KDC referred ${asked} to (RFC 6806 §4)`]);
  }
  if (!realm) return null;
  const [name, realmFrom] = realm;
  if (!unknown(await ask(name, [`vigil-${randomBytes(6).toString('hex')}`]))) return null;

  const result: KdcSurvey = {
    realm: name,
    realmFrom,
    transport,
    roastable: [],
    existing: [],
    asked: 0,
    weakKeys: null,
  };
  for (const candidate of KERBEROS_NAMES) {
    const r = await ask(name, [candidate]);
    result.asked++;
    if (!r || !held(r)) continue;
    if (r.kind === 'error') result.existing.push({ name: candidate, code: r.code });
    // The reply must be for the name asked: a KDC that canonicalised it to another principal proves nothing about this one.
    else if (r.cname.join('/').toLowerCase() === candidate)
      result.roastable.push({
        name: candidate,
        crealm: r.crealm,
        cname: r.cname.join('/'),
        etype: r.etype,
        cipherBytes: r.cipherBytes,
      });
  }
  // 4. Weak keys: up to three principals found, offered only the weak etypes.
  for (const principal of [...result.existing.map((e) => e.name), ...result.roastable.map((r) => r.name)].slice(0, 3)) {
    const r = await kdcAsk(
      net,
      port,
      transport,
      asReq({ realm: name, name: [principal], nameType: NT_PRINCIPAL, nonce: randomInt(2 ** 31), etypes: WEAK_ETYPES }),
    );
    const etypes = (r?.kind === 'as-rep' ? [r.etype] : r?.kind === 'error' ? r.keyEtypes : []).filter((e) =>
      WEAK_ETYPES.includes(e),
    );
    if (!r || !etypes.length) continue;
    result.weakKeys = {
      name: principal,
      etypes,
      answer: r.kind === 'as-rep' ? 'an AS-REP sealed with it' : `${errorName(r.code)} whose PA-ETYPE-INFO2 lists it`,
    };
    break;
  }
  return result;
}
