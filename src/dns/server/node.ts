import type { Answer } from 'dns-packet';

/** Resource records of one owner name, by type (dns-packet's type name). */
export type Node = ReadonlyMap<string, Answer[]>;

/**
 * A node with records of one type: most owners of a provider's zones (a
 * host's A record). A JavaScript Map costs ~180 bytes even with one entry
 * (its hash table is made for several), and a list of one record ~50 more;
 * this object is two fields, and a lone record is kept as is. The index of
 * 1,000,000 records in 20,000 zones of 50 went from 496 to 343 bytes of
 * heap a record with this class, to 293 with the lone record unlisted
 * (docs/performance.md, "100,000 zones"). A second type makes the indexer
 * switch the owner to a Map (`addTo`): answering sees no difference.
 */
export class OneTypeNode implements ReadonlyMap<string, Answer[]> {
  constructor(
    readonly type: string,
    /** One record alone (most owners), else the list. */
    private one: Answer | Answer[],
  ) {}

  /** The records, as a list (one record: a new list of it; answering asks only on a reply-cache miss). */
  get rrs(): Answer[] {
    return Array.isArray(this.one) ? this.one : [this.one];
  }

  /** Appends the records to `out` (a zone's transfer body: no list made for a lone record). */
  pushTo(out: Answer[]): void {
    if (Array.isArray(this.one)) for (const rr of this.one) out.push(rr);
    else out.push(this.one);
  }

  /** A record of this node's type (the indexer's step). */
  add(a: Answer): void {
    if (Array.isArray(this.one)) this.one.push(a);
    else this.one = [this.one, a];
  }

  get size(): number {
    return 1;
  }

  get(type: string): Answer[] | undefined {
    return type === this.type ? this.rrs : undefined;
  }

  has(type: string): boolean {
    return type === this.type;
  }

  forEach(fn: (rrs: Answer[], type: string, map: ReadonlyMap<string, Answer[]>) => void, self?: unknown): void {
    fn.call(self, this.rrs, this.type, this);
  }

  *entries(): MapIterator<[string, Answer[]]> {
    yield [this.type, this.rrs];
  }

  *keys(): MapIterator<string> {
    yield this.type;
  }

  *values(): MapIterator<Answer[]> {
    yield this.rrs;
  }

  [Symbol.iterator](): MapIterator<[string, Answer[]]> {
    return this.entries();
  }
}

/** Adds one record to its owner's node in `nodes` (the indexer's step): one type stays a OneTypeNode. */
export function addTo(nodes: Map<string, Node>, a: Answer): void {
  const name = a.name.toLowerCase();
  const node = nodes.get(name);
  if (!node) {
    nodes.set(name, new OneTypeNode(a.type, a));
    return;
  }
  if (node instanceof OneTypeNode && node.type === a.type) {
    node.add(a);
    return;
  }
  const list = node.get(a.type);
  if (list) {
    list.push(a);
    return;
  }
  // A second type: a Map from here on.
  const map = node instanceof Map ? (node as Map<string, Answer[]>) : new Map(node);
  map.set(a.type, [a]);
  if (map !== node) nodes.set(name, map);
}

/**
 * Every name of a zone version that exists: the owners of its nodes and the
 * empty non-terminals above them (RFC 4592 2.2.2). The owners are read from
 * the node map itself rather than copied into a Set of their own: 23
 * bytes of heap a record less, measured as above (366 to 343); the empty
 * non-terminals, few, are kept here.
 */
export class ZoneNames implements ReadonlySet<string> {
  constructor(
    private readonly nodes: ReadonlyMap<string, Node>,
    private readonly ents: Set<string>,
  ) {}

  has(name: string): boolean {
    return this.nodes.has(name) || this.ents.has(name);
  }

  get size(): number {
    return this.nodes.size + this.ents.size;
  }

  *values(): SetIterator<string> {
    yield* this.nodes.keys();
    yield* this.ents;
  }

  keys(): SetIterator<string> {
    return this.values();
  }

  *entries(): SetIterator<[string, string]> {
    for (const name of this.values()) yield [name, name];
  }

  forEach(fn: (name: string, same: string, set: ReadonlySet<string>) => void, self?: unknown): void {
    for (const name of this.values()) fn.call(self, name, name, this);
  }

  [Symbol.iterator](): SetIterator<string> {
    return this.values();
  }

  /** Takes a name out; an owner leaves with its node (nsec3-answer.ts takes both out). */
  delete(name: string): boolean {
    return this.ents.delete(name);
  }
}
