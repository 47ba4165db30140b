import { isIPv6 } from 'node:net';
import type { Answer } from 'dns-packet';
import {
  answerOf,
  isRecordType,
  RECORD_TYPES,
  type RecordTypeName,
  ttlOf,
  type SoaData,
  type StoredData,
} from '../records.ts';
import { A } from '../rr/a.ts';
import { AAAA } from '../rr/aaaa.ts';
import { SOA } from '../rr/soa.ts';
import { optionsOf, soaOf, type ZoneModel } from '../zone.ts';
import { compareLabels, labels } from '../dnssec/canonical.ts';
import { decodeSignedSteps } from '../dnssec/wire.ts';
import { WIRE } from '../rr/wire-names.ts';
import { type Nsec3Chain, nsec3ChainSteps } from './nsec3-answer.ts';
import { drain, inOrder, pushAll, STEP, type Steps } from './slices.ts';
import { addTo, type Node, OneTypeNode, ZoneNames } from './node.ts';

export type { Node } from './node.ts';

/**
 * One zone version, indexed for answering: built once when a version enters
 * the serving set, so a query is a few map look-ups. Names are lower case
 * and have no trailing dot (dns-packet's form).
 */
export interface ZoneIndex {
  readonly zone: string;
  readonly serial: number;
  readonly soa: Answer;
  /** Negative-answer TTL: min(SOA TTL, SOA minimum) (RFC 2308). */
  readonly negativeTtl: number;
  readonly nodes: ReadonlyMap<string, Node>;
  /** Every name that exists, empty non-terminals included. */
  readonly names: ReadonlySet<string>;
  /** Delegation points below the apex (owners of NS records). */
  readonly cuts: ReadonlySet<string>;
  /** The zone's Options (BIND's meaning), '' when unset. */
  readonly options: { allowtransferacl: string; notify: string; alsonotify: string };
  /** Every record, SOA first: the body of a zone transfer. */
  readonly all: readonly Answer[];
  /**
   * Encoded replies of this version by exact question (name as asked, type,
   * RD, EDNS size class): answers are computed once per zone version and a
   * repeat question costs a copy and its ID. Dropped with the version.
   */
  readonly replies: Map<string, CachedReply>;
  /** The version this one replaced, kept for IXFR (one step back). */
  previous?: { serial: number; all: readonly Answer[] };
  /** Set when the version is signed with NSEC: its chain in canonical order, for denial proofs (dnssec-answer.ts). */
  readonly nsecChain?: readonly NsecLink[];
  /**
   * Set when the version is signed with NSEC3: its chain in hash order (nsec3-answer.ts). Its owners are
   * then not in `nodes` or `names` (RFC 5155 7.2.9), only in `all`.
   */
  readonly nsec3?: Nsec3Chain;
}

/** A reply as encoded, with its response-rate-limiting key (rrl.ts). */
export interface CachedReply {
  readonly out: Buffer;
  readonly rrl: string;
}

export interface NsecLink {
  readonly name: string;
  readonly labels: Buffer[];
}

/**
 * The wire-level record(s) of one stored record; [] for settings. A web
 * forwarding is answered with the forwarder's address (A or AAAA).
 */
export function recordAnswers(
  type: RecordTypeName,
  d: StoredData,
  zone: string,
  ttl = 0,
  forwardAddress: string | null = null,
): Answer[] {
  const def = RECORD_TYPES[type];
  if (def.role === 'forward') {
    const owner = def.owner(d);
    if (!forwardAddress || owner === null) return [];
    const address = isIPv6(forwardAddress) ? AAAA : A;
    return [answerOf(address.type, { name: owner, data: forwardAddress }, zone, ttl)!];
  }
  const answer = answerOf(type, d, zone, ttl);
  return answer ? [answer] : [];
}

export function soaAnswer(soa: SoaData, zone: string, serial: number): Answer {
  return { ...answerOf(SOA.type, { ...soa, serial }, zone, soa.min)!, name: zone };
}

export function buildZoneIndex(model: ZoneModel, forwardAddress: string | null = null): ZoneIndex {
  return drain(zoneIndexSteps(model, forwardAddress));
}

/** buildZoneIndex a slice at a time (slices.ts): how the name server loads a new version while it answers. */
export function* zoneIndexSteps(model: ZoneModel, forwardAddress: string | null = null): Steps<ZoneIndex> {
  const soa = soaOf(model);
  const answers: Answer[] = [];
  let n = 0;
  for (const r of model.records) {
    if (++n % STEP === 0) yield;
    if (!isRecordType(r.type) || RECORD_TYPES[r.type].role === 'soa') continue;
    answers.push(...recordAnswers(r.type, r.data, model.zone, ttlOf(r.data, soa.min), forwardAddress));
  }
  // Only records with their own TTL can make a set differ: most zones skip the pass.
  if (model.records.some((r) => typeof r.data.ttl === 'number')) sameTtlPerSet(answers);
  const opts = optionsOf(model);
  const options = {
    allowtransferacl: opts.allowtransferacl ?? '',
    notify: opts.notify ?? '',
    alsonotify: opts.alsonotify ?? '',
  };
  const soaRr = soaAnswer(soa, model.zone, model.serial);
  if (!model.dnssec) return yield* indexAnswersSteps(model.zone, soaRr, answers, options);
  // Signed: the signer's records (DNSKEY, RRSIG, NSEC, CDS…) join the others, so
  // queries for them, ANY and zone transfers carry them like any record.
  const signed = yield* decodeSignedSteps(model.dnssec.wire, STEP);
  yield* pushAll(answers, signed);
  const index = yield* indexAnswersSteps(model.zone, soaRr, answers, options);
  if (model.dnssec.denial === 'nsec3') {
    // indexAnswersSteps's maps are this build's own: the chain's owners are taken out of them in place.
    const nsec3 = yield* nsec3ChainSteps(index.zone, index.nodes as Map<string, Node>, index.names as ZoneNames);
    return { ...index, nsec3 };
  }
  const chain: NsecLink[] = [];
  for (const a of signed) {
    if (a.type !== 'NSEC') continue;
    chain.push({ name: a.name.toLowerCase(), labels: labels(a.name) });
    if (chain.length % STEP === 0) yield;
  }
  // The signer writes its chain in canonical order already (dnssec/nsec.ts): one pass to check, no sort.
  if (!inOrder(chain, (a, b) => compareLabels(a.labels, b.labels)))
    chain.sort((a, b) => compareLabels(a.labels, b.labels));
  return { ...index, nsecChain: chain };
}

/**
 * One TTL per record set (RFC 2181 5.2): records with their own TTLs
 * (issue 16) may differ; the set is served with the lowest, what a resolver
 * would assume anyway. Publish warns of such sets (validate.ts).
 */
function sameTtlPerSet(answers: Answer[]): void {
  const lowest = new Map<string, number>();
  for (const a of answers) {
    const key = `${a.name.toLowerCase()} ${a.type}`;
    const ttl = (a as { ttl: number }).ttl;
    const seen = lowest.get(key);
    if (seen === undefined || ttl < seen) lowest.set(key, ttl);
  }
  for (const a of answers) (a as { ttl: number }).ttl = lowest.get(`${a.name.toLowerCase()} ${a.type}`)!;
}

/** Indexes a zone given as wire records. */
export function indexAnswers(zone: string, soaRr: Answer, answers: Answer[], options: ZoneIndex['options']): ZoneIndex {
  return drain(indexAnswersSteps(zone, soaRr, answers, options));
}

/** indexAnswers a slice at a time (a zone version's index, the catalog zone). */
export function* indexAnswersSteps(
  zone: string,
  soaRr: Answer,
  answers: Answer[],
  options: ZoneIndex['options'],
): Steps<ZoneIndex> {
  const nodes = new Map<string, Node>();
  let n = 0;
  addTo(nodes, soaRr);
  for (const a of answers) {
    addTo(nodes, a);
    if (++n % STEP === 0) yield;
  }
  const ents = new Set<string>();
  const cuts = new Set<string>();
  const all = [soaRr];
  for (const [name, node] of nodes) {
    if (++n % STEP === 0) yield;
    // Every ancestor up to the apex exists too: those with no node are empty non-terminals. The walk stops at
    // an ancestor with a node (its own walk covers what is above it) or one already found.
    for (let a = name; a !== zone && a.includes('.'); ) {
      a = a.slice(a.indexOf('.') + 1);
      if (a.length < zone.length || nodes.has(a) || ents.has(a)) break;
      ents.add(a);
    }
    if (name !== zone && node.has(WIRE.NS)) cuts.add(name);
    // One type (most owners): its list as is, without an iterator.
    if (node instanceof OneTypeNode) {
      if (node.type !== WIRE.SOA) node.pushTo(all);
    } else for (const [t, rrs] of node) if (t !== WIRE.SOA) for (const rr of rrs) all.push(rr);
  }
  const serial = (soaRr as { data: { serial: number } }).data.serial;
  // The SOA's own TTL is its minimum too, so negative answers use it.
  return {
    zone,
    serial,
    soa: soaRr,
    negativeTtl: (soaRr as { ttl: number }).ttl,
    nodes,
    names: new ZoneNames(nodes, ents),
    cuts,
    options,
    all,
    replies: new Map(),
  };
}
