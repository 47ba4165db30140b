import { portRanges } from './report-ports.ts';

/**
 * The most ports one `ports` list may name, counting repeats
 * (INTERFACE.md): every TCP port once. `--audit-max-ports` may lower it.
 */
export const MAX_PORTS = 65_535;

const ITEM = /^(\d{1,5})(?:-(\d{1,5}))?$/;

/**
 * A `ports` list (`22,80,443,8000-8100`) as the sorted, distinct ports it
 * names, or null when it is bad: an empty item (`22,,80`, a trailing comma,
 * an empty value), a reversed range (`90-80`), 0, a port above 65535,
 * anything but digits and one hyphen per item, or more than `max` ports in
 * all counting repeats (`1-65535,80` names 65,536). Blanks around an item
 * are allowed. The count is added up from the ranges before anything is
 * expanded, so a long hostile list costs its length, not 65,535 per item.
 */
export function parsePorts(text: string, max = MAX_PORTS): number[] | null {
  const spans: [number, number][] = [];
  let total = 0;
  for (const raw of text.split(',')) {
    const m = ITEM.exec(raw.trim());
    if (!m) return null;
    const lo = Number(m[1]);
    const hi = m[2] === undefined ? lo : Number(m[2]);
    if (lo < 1 || hi > 65_535 || hi < lo) return null;
    total += hi - lo + 1;
    if (total > Math.min(max, MAX_PORTS)) return null;
    spans.push([lo, hi]);
  }
  const seen = new Uint8Array(65_536);
  for (const [lo, hi] of spans) seen.fill(1, lo, hi + 1);
  const out: number[] = [];
  for (let p = 1; p <= 65_535; p++) if (seen[p]) out.push(p);
  return out;
}

/** The form a list is stored and shown in: ranges, ascending (`22,80,443,8000-8100`). */
export function normalizedPorts(ports: readonly number[]): string {
  return portRanges(ports);
}

/** The ports of a stored (normalized, once checked) list; null: the audit type's own. */
export function storedPorts(text: string | null): number[] | null {
  return text === null ? null : parsePorts(text);
}
