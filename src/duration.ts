const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses the DUR syntax of INTERFACE.md (`500ms`, `2s`, `5m`, `24h`, also `7d`) into ms. */
export function parseDuration(text: string): number {
  const m = /^(\d{1,9})(ms|s|m|h|d)$/.exec(text.trim());
  if (!m) throw new Error(`invalid duration '${text}' (use e.g. 500ms, 2s, 5m, 24h)`);
  const ms = Number(m[1]) * UNITS[m[2]!]!;
  if (ms <= 0) throw new Error(`duration '${text}' must be more than zero`);
  return ms;
}
