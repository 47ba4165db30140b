/**
 * The bench's Markdown: one row per planted weakness (grouped by family),
 * a row each for totals, false positives on twins, wrong attributions and
 * wall time; a per-family summary; then the evidence a check owner needs
 * (every false positive, every wrong attribution, what else was said on
 * weak targets).
 */
import type { Family, Weakness } from './fleet/kit.ts';
import type { Score } from './judge.ts';

const FAMILY_NAMES: Record<Family, string> = {
  auth: 'default or missing authentication',
  cleartext: 'credentials in cleartext',
  web: 'web content that should not be public',
  'dns-mail': 'DNS and mail',
  tls: 'TLS (implicit and STARTTLS) and SSH algorithms',
  smb: 'SMB',
  ident: 'services to be named',
  udp: 'UDP services',
  dos: 'denial of service (DoS class)',
};
const ORDER = Object.keys(FAMILY_NAMES) as Family[];
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const row = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;

export function report(
  runs: Record<string, Score>,
  planted: Weakness[],
  meta: { up: string[]; skipped: string[]; notes: string[]; checks: number; scripts: string; totalMs: number },
): string {
  const cols = Object.keys(runs);
  const sorted = [...planted].sort((a, b) => ORDER.indexOf(a.family) - ORDER.indexOf(b.family));
  const out: string[] = [];
  out.push(
    row(['family', 'planted weakness', 'daemon', 'target', ...cols]),
    row(['---', '---', '---', '---', ...cols.map(() => ':---:')]),
  );
  for (const w of sorted)
    out.push(
      row([
        w.family,
        w.label,
        w.daemon,
        `${w.address}:${w.port}/${w.proto}`,
        ...cols.map((c) => (runs[c]!.found[w.id] ? 'yes' : 'no')),
      ]),
    );
  const total = (c: string) => planted.filter((w) => runs[c]!.found[w.id]).length;
  out.push(row(['**found**', '', '', '', ...cols.map((c) => `**${total(c)}/${planted.length}**`)]));
  out.push(row(['false positives on twins', '', '', '', ...cols.map((c) => runs[c]!.falsePositives.length)]));
  out.push(row(['wrong CVE attributions', '', '', '', ...cols.map((c) => runs[c]!.wrongAttributions.length)]));
  out.push(row(['other HOLE/NOTE on weak targets', '', '', '', ...cols.map((c) => runs[c]!.otherOnTargets.length)]));
  out.push(
    row([
      'wall time',
      '',
      '',
      '',
      ...cols.map((c) => `${secs(runs[c]!.ms)}${runs[c]!.timedOut ? ' (some hosts killed)' : ''}`),
    ]),
  );

  out.push('', row(['family', 'planted', ...cols]), row(['---', ':---:', ...cols.map(() => ':---:')]));
  for (const f of ORDER) {
    const ws = planted.filter((w) => w.family === f);
    if (ws.length)
      out.push(row([FAMILY_NAMES[f], ws.length, ...cols.map((c) => ws.filter((w) => runs[c]!.found[w.id]).length)]));
  }

  out.push('', `Fleet up: ${meta.up.join(', ')}.`);
  if (meta.skipped.length) out.push(`Skipped: ${meta.skipped.join('; ')}.`);
  for (const n of meta.notes) out.push(`Note: ${n}`);
  out.push(
    `Service kinds: ${new Set(planted.map((w) => w.daemon)).size}; catalogue: ${meta.checks} checks; nmap scripts: \`${meta.scripts}\`; total bench time ${secs(meta.totalMs)}.`,
  );

  for (const c of cols) {
    const r = runs[c]!;
    if (r.error) out.push('', `**${c} error:** ${r.error}`);
    if (r.falsePositives.length)
      out.push('', `${c} false positives on twins:`, ...r.falsePositives.map((x) => `  - ${x}`));
    if (r.inherent?.length)
      out.push('', `${c} on twins, inherent to the product (not counted):`, ...r.inherent.map((x) => `  - ${x}`));
    if (r.wrongAttributions.length)
      out.push('', `${c} wrong attributions:`, ...r.wrongAttributions.map((x) => `  - ${x}`));
  }
  const best = cols.filter((c) => c !== 'nmap').at(-1);
  if (best) {
    const r = runs[best]!;
    const missed = sorted.filter((w) => !r.found[w.id]);
    if (missed.length)
      out.push(
        '',
        `${best} missed:`,
        ...missed.map((w) => `  - ${w.id} (${w.label}) @${w.address}:${w.port}/${w.proto}`),
      );
    if (r.otherOnTargets.length)
      out.push('', `${best}: other HOLE/NOTE on weak targets:`, ...r.otherOnTargets.map((x) => `  - ${x}`));
    out.push(
      '',
      `${best} evidence per weakness:`,
      ...sorted.filter((w) => r.found[w.id]).map((w) => `  - ${w.id}: ${r.found[w.id]}`),
    );
  }
  if (runs.nmap)
    out.push(
      '',
      'nmap evidence per weakness:',
      ...sorted.filter((w) => runs.nmap!.found[w.id]).map((w) => `  - ${w.id}: ${runs.nmap!.found[w.id]}`),
    );
  return out.join('\n');
}
