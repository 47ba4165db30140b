import type { FieldDef } from './kit.ts';
import { Options } from './options.ts';
import { SOA } from './soa.ts';
import { RECORD_TYPE_LIST } from './index.ts';

/**
 * Files made from the record table for code that must not load the table
 * itself: the web console (the kit runs on Node) and the typed client (it
 * carries the script contracts without the server's code and packages).
 * `npm run gen:record-forms` writes them; a test fails while one differs.
 */

interface ConsoleField {
  name: string;
  label: string;
  hint?: string;
  optional?: boolean;
  code?: string;
}

const TTL: ConsoleField = {
  name: 'ttl',
  label: 'TTL (seconds)',
  hint: "blank: the zone's TTL",
  optional: true,
  code: 'syntaxInvalidTTL',
};

const consoleField = (f: FieldDef): ConsoleField => ({
  name: f.name,
  label: f.label,
  ...(f.hint ? { hint: f.hint } : {}),
  ...(f.code ? { code: f.code } : {}),
  // A field the form may leave blank: an optional one, or an owner (blank is the apex).
  ...(!f.required || f.kind === 'owner' ? { optional: true } : {}),
});

/**
 * The console's record forms and display templates, made from the record
 * table: each type's add script and fields (then the optional TTL every
 * add takes), the zone options' form, and each type's one-line display.
 */
function consoleFormsSource(): string {
  const forms: { type: string; script: string; fields: ConsoleField[] }[] = RECORD_TYPE_LIST.filter((t) => t.add).map(
    (t) => ({
      type: t.type,
      script: t.add!.script,
      fields: [...t.add!.fields.map(consoleField), TTL],
    }),
  );
  // Zone options are read back as records of their type (spec 4.1, behaviour 4) and set by dnsSetOptions.
  forms.push({
    type: Options.type,
    script: Options.settings.script,
    fields: Options.settings.fields.map(consoleField),
  });
  const display = Object.fromEntries(RECORD_TYPE_LIST.map((t) => [t.type, t.display]));
  return [
    '// Generated from src/dns/rr/ by `npm run gen:record-forms` (src/dns/rr/generated.ts): do not edit.',
    '// A test fails while it differs from what the record table makes.',
    "import type { RecordForm } from './record-forms.ts';",
    '',
    `export const RECORD_FORMS: RecordForm[] = ${JSON.stringify(forms, null, 2)};`,
    '',
    `export const DISPLAY: Record<string, string> = ${JSON.stringify(display, null, 2)};`,
    '',
    '/** The SOA: never deleted, and its minimum is the TTL of records without their own. */',
    `export const SOA_TYPE = ${JSON.stringify(SOA.type)};`,
    `export const OPTIONS_TYPE = ${JSON.stringify(Options.type)};`,
    '',
  ].join('\n');
}

/** A field as the add script's contract declares it (src/api/contract/dns-records.ts). */
const contractField = (f: FieldDef) => {
  const { name, kind, required, code, min, max, values, doc } = f;
  return { name, kind, required, code, min, max, values, doc };
};

/** The add scripts' declarations, pure data `as const`: the contract and the SDK's types are made from it. */
function contractFormsSource(): string {
  const forms = RECORD_TYPE_LIST.filter((t) => t.add).map((t) => {
    const { script, summary, extension, domainOptional, fields } = t.add!;
    return { script, summary, extension, domainOptional, fields: fields.map(contractField) };
  });
  return [
    '// Generated from src/dns/rr/ by `npm run gen:record-forms` (src/dns/rr/generated.ts): do not edit.',
    '// A test fails while it differs from what the record table makes.',
    '',
    "/** Each record type's add script and fields, as its type in src/dns/rr/ declares them. */",
    `export const RECORD_ADD_FORMS = ${JSON.stringify(forms, null, 2)} as const;`,
    '',
  ].join('\n');
}

export const GENERATED: readonly { readonly file: string; source(): string }[] = [
  { file: 'web/record-forms.gen.ts', source: consoleFormsSource },
  { file: 'src/api/contract/record-adds.gen.ts', source: contractFormsSource },
];
