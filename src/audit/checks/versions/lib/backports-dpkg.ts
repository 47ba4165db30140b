/**
 * Debian package version ordering, as dpkg has it (deb-version(7), "Sorting
 * algorithm"; lib/dpkg/version.c verrevcmp). Written here rather than taken
 * from npm: the algorithm is thirty lines, fully specified by the man page,
 * and the npm packages for it are unmaintained single-author ports.
 *
 * [epoch:]upstream[-revision]; each part compared as alternating runs of
 * non-digits (letters sort before non-letters, `~` before everything, even
 * the end of the string) and digits (numerically).
 */

function order(c: string | undefined): number {
  if (c === undefined) return 0;
  if (c === '~') return -1;
  if (/[0-9]/.test(c)) return 0;
  if (/[A-Za-z]/.test(c)) return c.charCodeAt(0);
  return c.charCodeAt(0) + 256;
}

/** verrevcmp of dpkg: one part (upstream or revision). */
function part(a: string, b: string): number {
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    let first = 0;
    while ((i < a.length && !/[0-9]/.test(a[i]!)) || (j < b.length && !/[0-9]/.test(b[j]!))) {
      const ac = order(a[i]);
      const bc = order(b[j]);
      if (ac !== bc) return ac - bc;
      i++;
      j++;
    }
    while (a[i] === '0') i++;
    while (b[j] === '0') j++;
    while (i < a.length && /[0-9]/.test(a[i]!) && j < b.length && /[0-9]/.test(b[j]!)) {
      if (!first) first = a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (i < a.length && /[0-9]/.test(a[i]!)) return 1;
    if (j < b.length && /[0-9]/.test(b[j]!)) return -1;
    if (first) return first;
  }
  return 0;
}

function split(v: string): [number, string, string] {
  const colon = v.indexOf(':');
  const epoch = colon > 0 ? Number(v.slice(0, colon)) : 0;
  const rest = colon > 0 ? v.slice(colon + 1) : v;
  const dash = rest.lastIndexOf('-');
  return dash > 0 ? [epoch, rest.slice(0, dash), rest.slice(dash + 1)] : [epoch, rest, ''];
}

/** Negative, zero or positive like a sort comparator: dpkg --compare-versions. */
export function compareDebian(a: string, b: string): number {
  const [ea, ua, ra] = split(a);
  const [eb, ub, rb] = split(b);
  if (ea !== eb) return ea - eb;
  return part(ua, ub) || part(ra, rb);
}
