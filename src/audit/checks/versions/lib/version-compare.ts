/**
 * Version numbers as vendors write them: '2.4.49', '7.4p1', '1.0.1e',
 * '9.11.5-P4', '1.3.6rc2', '2.3.14.1'. Split into number and letter runs;
 * numbers compare numerically, letters alphabetically, and a longer version
 * is newer (1.0.1 < 1.0.1a, 7.4 < 7.4p1, 9.9.7 < 9.9.7-P1) except for
 * pre-release words (1.3.6rc2 < 1.3.6).
 */
type Token = number | string;

const PRE = /^(rc|alpha|beta|pre|dev)$/;

export function tokens(version: string): Token[] {
  const out: Token[] = [];
  for (const m of version.toLowerCase().matchAll(/\d+|[a-z]+/g)) out.push(/\d/.test(m[0]) ? Number(m[0]) : m[0]);
  return out;
}

/** Negative, zero or positive like a sort comparator. */
export function compareVersions(a: string, b: string): number {
  const x = tokens(a);
  const y = tokens(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const p = x[i];
    const q = y[i];
    if (p === undefined) return q !== undefined && typeof q === 'string' && PRE.test(q) ? 1 : -1;
    if (q === undefined) return typeof p === 'string' && PRE.test(p) ? -1 : 1;
    if (p === q) continue;
    if (typeof p === 'number' && typeof q === 'number') return p - q;
    // A number beats a letter at the same place: 1.0.2 > 1.0.a? never seen; keep a total order.
    if (typeof p === 'number') return 1;
    if (typeof q === 'number') return -1;
    if (PRE.test(p) !== PRE.test(q)) return PRE.test(p) ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

export interface Range {
  from: string | null;
  fixed: string;
}

/** '8.5p1 <9.8p1, <4.4p1' -> ranges; a malformed part is a programming error. */
export function parseRanges(text: string): Range[] {
  return text.split(',').map((part) => {
    const m = /^\s*(\S+)?\s*<(\S+)\s*$/.exec(part);
    if (!m) throw new Error(`bad version range: ${part}`);
    return { from: m[1] ?? null, fixed: m[2]! };
  });
}

export function inRange(version: string, ranges: readonly Range[]): boolean {
  return ranges.some(
    (r) => (r.from === null || compareVersions(version, r.from) >= 0) && compareVersions(version, r.fixed) < 0,
  );
}
