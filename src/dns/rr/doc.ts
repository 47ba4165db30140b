import { ADDABLE, zoneLines } from './index.ts';
import type { FieldDef } from './kit.ts';

/** The markers of the generated block in docs/dns.md. */
export const DOC_FILE = 'docs/dns.md';
export const DOC_BEGIN =
  '<!-- record types: generated from src/dns/rr/ by src/dns/rr/doc.ts; VIGIL_WRITE_DOCS=1 rewrites it -->';
export const DOC_END = '<!-- end of record types -->';

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** A value as a POSIX shell word: quoted when it is empty or holds anything but plain characters. */
const shellWord = (v: string) => (/^[\w.,:@/=+-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`);

function what(f: FieldDef): string {
  if (f.kind === 'integer') return `integer ${f.min} to ${f.max}`;
  if (f.kind === 'enum') return f.values!.map((v) => (v === '' ? 'empty' : `\`${v}\``)).join(', ');
  return f.kind;
}

/**
 * docs/dns.md's list of record types: each type's add script, its fields
 * with their codes, and its example as an add and as the zone line it
 * makes. Written from the table, so it cannot drift from what is served.
 */
export function recordTypesDoc(): string {
  const out = [DOC_BEGIN, ''];
  for (const t of ADDABLE) {
    const add = t.add!;
    out.push(`#### ${t.type}: \`${add.script}\`${add.extension ? ' (extension)' : ''}`, '');
    out.push('| field | | value | code | |', '|---|---|---|---|---|');
    for (const f of add.fields) {
      const need = f.required ? 'required' : 'optional';
      out.push(`| \`${f.name}\` | ${need} | ${cell(what(f))} | ${f.code ? `\`${f.code}\`` : '–'} | ${cell(f.doc)} |`);
    }
    out.push("| `ttl` | optional | integer 0 to 2147483647 | `syntaxInvalidTTL` | the record's own TTL |", '');
    const example = Object.entries(add.example)
      .map(([k, v]) => `${k}=${shellWord(v)}`)
      .join(' ');
    out.push(`Example: \`vigil dns add example.org ${t.type} ${example}\``);
    const lines = zoneLines(t.type, t.parse(add.example, 'example.org'), 'example.org', 3600);
    if (lines.length) out.push('', '```', ...lines.map((l) => l.replace(/\t/g, ' ')), '```');
    out.push('');
  }
  out.push(DOC_END);
  return out.join('\n');
}
