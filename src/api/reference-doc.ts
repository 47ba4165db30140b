import type { LoginScript, SessionScript } from './call.ts';
import { errorsOf, type JsonSchema, type ParamSpec, type Prerequisite } from './contract/index.ts';
import { SCRIPTS } from './scripts.ts';

/**
 * The generated part of docs/api-reference.md: every served script with
 * its fields, prerequisites, reply fields and codes, from the same table
 * the API runs (src/api/reference-doc.test.ts keeps the doc in step).
 */
export const BEGIN =
  '<!-- table:begin (generated from the script table by src/api/reference-doc.test.ts; VIGIL_WRITE_DOCS=1 rewrites it) -->';
export const END = '<!-- table:end -->';

const NEEDS: Record<Prerequisite, string> = {
  session: 'a session (`apikey` and `sessionToken`)',
  dnsSubscription: 'an unexpired DNS subscription',
  auditEntitlement: 'the audit type among the account’s (checked after the fields)',
};

const cell = (text: string) => text.replace(/\|/g, '\\|');

function kindText(p: ParamSpec): string {
  if (p.kind === 'enum') return p.values!.map((v) => (v === '' ? 'empty' : `\`${v}\``)).join(', ');
  if (p.kind === 'integer') return `integer ${p.min} to ${p.max}`;
  return p.kind;
}

function typeText(s: JsonSchema): string {
  const base =
    s.type === 'array'
      ? `array of ${typeText(s.items)}`
      : s.type === 'map'
        ? `object of ${typeText(s.values)}`
        : s.type === 'scalar'
          ? 'string or number'
          : s.type === 'string' && s.enum
            ? s.enum.map((v) => `\`${v}\``).join(' / ')
            : s.type;
  return 'nullable' in s && s.nullable ? `${base} or null` : base;
}

function operation(o: SessionScript | LoginScript, heading: string): string[] {
  const lines = [heading, '', `${o.summary}.`, ''];
  const needs = ['the API key (`apikey`)', ...o.requires.map((r) => NEEDS[r])];
  lines.push(
    `Needs, in this order: ${needs.join(', ')}.${o.extension ? ' A field it does not take is refused (`unknownParameter`).' : ''}`,
    '',
  );
  const params = Object.entries(o.params);
  if (params.length) {
    lines.push('| field | | kind | code | checked by | |', '|---|---|---|---|---|---|');
    for (const [name, p] of params) {
      const code =
        [p.missingCode && `\`${p.missingCode}\` (missing)`, p.code && `\`${p.code}\``].filter(Boolean).join(', ') ||
        '–';
      lines.push(
        `| \`${name}\` | ${p.required ? 'required' : 'optional'} | ${cell(kindText(p))} | ${code} | ${p.checkedBy} | ${cell(p.doc)} |`,
      );
    }
  } else lines.push('No fields of its own.');
  lines.push('');
  const reply = Object.entries(o.reply);
  if (reply.length) {
    lines.push('| reply field | type | |', '|---|---|---|');
    for (const [name, f] of reply)
      lines.push(`| \`${name}\` | ${cell(typeText(f))}${f.optional ? ', may be absent' : ''} | ${cell(f.doc ?? '')} |`);
  } else lines.push('Reply: `status` only.');
  lines.push(
    '',
    `Codes: ${errorsOf(o)
      .map((c) => `\`${c}\``)
      .join(', ')}. System error: \`${o.systemError}\`.`,
    '',
  );
  return lines;
}

export function referenceBlock(): string {
  const out = [BEGIN, ''];
  for (const [name, s] of Object.entries(SCRIPTS)) {
    if ('alias' in s) {
      out.push(
        `### \`${name}\` (shared name)`,
        '',
        `Serves ${s.operations.length} operations, chosen by the fields sent (api.md, "Shared script names"):`,
        '',
      );
      s.operations.forEach((o, i) => out.push(...operation(o, `#### \`${name}\`, operation ${i + 1}`)));
    } else out.push(...operation(s, `### \`${name}\``));
  }
  out.push(END);
  return out.join('\n');
}
