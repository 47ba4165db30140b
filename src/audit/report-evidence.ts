// How a report quotes what a target said, and where to read more (issue
// 31). Pure (no node: imports): the report writer and the renderers, which a
// browser runs too, share it.

/** A reply of at most this many lines is quoted whole. */
export const EVIDENCE_WHOLE = 6;
/** Lines kept on each side of a line that proves the point. */
export const EVIDENCE_CONTEXT = 1;
/** At most this many proving lines are quoted (a short version string may be on many). */
export const EVIDENCE_MATCHES = 4;
/** Lines kept from the start when no line proves anything in particular. */
export const EVIDENCE_HEAD = 3;

const omitted = (n: number) => `… ${n} ${n === 1 ? 'line' : 'lines'} omitted`;

/**
 * A raw reply cut to the lines that matter, for any protocol: its first
 * line (how the reply began: a status, a greeting, a length), every line
 * `proves` picks (at most EVIDENCE_MATCHES) with EVIDENCE_CONTEXT lines
 * around each, and `… N lines omitted` where lines were left out. Without a
 * proving line the first EVIDENCE_HEAD lines stand for the rest. A Redis
 * INFO reply (22 lines) becomes its length line, `# Server`,
 * `redis_version:…` and the line after it. Line ends become `\n`.
 */
export function trimEvidence(text: string, proves: (line: string) => boolean): string {
  const lines = text.split(/\r?\n|\r/);
  if (lines.length <= EVIDENCE_WHOLE) return lines.join('\n');
  const keep = new Set<number>([0]);
  const hits = lines.flatMap((l, i) => (i > 0 && proves(l) ? [i] : [])).slice(0, EVIDENCE_MATCHES);
  if (hits.length === 0 && proves(lines[0]!)) hits.push(0);
  for (const i of hits)
    for (let j = i - EVIDENCE_CONTEXT; j <= i + EVIDENCE_CONTEXT; j++) if (j >= 0 && j < lines.length) keep.add(j);
  if (hits.length === 0) for (let j = 0; j < EVIDENCE_HEAD; j++) keep.add(j);
  const out: string[] = [];
  let gap = 0;
  lines.forEach((line, i) => {
    if (!keep.has(i)) return void gap++;
    if (gap) out.push(omitted(gap));
    gap = 0;
    out.push(line);
  });
  if (gap) out.push(omitted(gap));
  return out.join('\n');
}

/** `… N lines omitted`, as trimEvidence writes it. */
export const OMITTED = /^… \d+ lines? omitted$/;

/**
 * What tells two references apart: the URL without its scheme and trailing
 * slashes, host in lower case. The same advisory over http and https, or
 * with and without a final `/`, is one reference.
 */
export function referenceKey(url: string): string {
  const bare = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/+$/, '');
  const slash = bare.indexOf('/');
  return slash < 0 ? bare.toLowerCase() : bare.slice(0, slash).toLowerCase() + bare.slice(slash);
}

/** Each reference once, in first-seen order; of an http/https pair the https form is kept. */
export function dedupeReferences(urls: readonly string[]): string[] {
  const byKey = new Map<string, string>();
  for (const url of urls) {
    const key = referenceKey(url);
    const had = byKey.get(key);
    if (had === undefined || (!/^https:/i.test(had) && /^https:/i.test(url))) byKey.set(key, url);
  }
  return [...byKey.values()];
}
