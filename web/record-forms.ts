// The record add forms and one-line displays come from the record table
// (src/dns/rr/), generated into record-forms.gen.ts: the console cannot
// bundle the table itself (it runs on Node). `ttl` is Vigil's optional
// per-record TTL, which every add takes.
import { displayLine } from '../src/dns/rr/display.ts';
import { DISPLAY, SOA_TYPE } from './record-forms.gen.ts';

export { OPTIONS_TYPE, RECORD_FORMS, SOA_TYPE } from './record-forms.gen.ts';

export interface FieldSpec {
  name: string;
  label: string;
  hint?: string;
  optional?: boolean;
  /** The code a bad value answers, so the error shows beside this field. */
  code?: string;
}

export interface RecordForm {
  type: string;
  script: string;
  fields: FieldSpec[];
}

/** A record's data as one line for the table: its type's display. */
export function describe(type: string, d: Record<string, unknown>): string {
  return displayLine(DISPLAY[type] ?? '{name|@} → {data}', d);
}

/** The TTL a record is served with: its own, else the zone's (the SOA's minimum). */
export function ttlText(
  records: readonly { type: string; data: Record<string, unknown> }[],
  d: Record<string, unknown>,
) {
  if (typeof d.ttl === 'number') return String(d.ttl);
  const zone = records.find((r) => r.type === SOA_TYPE)?.data.min;
  return zone === undefined ? '' : `${zone} (zone)`;
}
