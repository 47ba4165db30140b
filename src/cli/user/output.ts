/** How the user commands print: one JSON document with --json, else text for people. */

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printText(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** Text to stderr, where it does not mix with the --json document. */
export function note(text: string): void {
  process.stderr.write(`${text}\n`);
}

export type Column<R> = [header: string, cell: (row: R) => unknown];

/**
 * A plain aligned table (no box drawing: it pastes into mail and `grep`s
 * well). The last column is not padded, so long values do not drag
 * trailing blanks.
 */
export function table<R>(rows: readonly R[], columns: readonly Column<R>[]): string {
  const cells = [columns.map(([h]) => h), ...rows.map((r) => columns.map(([, f]) => cellText(f(r))))];
  const widths = columns.map((_, i) => Math.max(...cells.map((c) => [...c[i]!].length)));
  return cells
    .map((c) =>
      c
        .map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function cellText(v: unknown): string {
  if (v === null || v === undefined || v === '') return '-';
  // One line per cell: a TXT value with a newline would break the columns.
  return String(v).replace(/[\r\n\t]/g, ' ');
}
