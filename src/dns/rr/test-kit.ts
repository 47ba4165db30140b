// Test helpers for the record types' own tests (not used in production; kept out of dist/ by name).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError } from '../../errors.ts';
import { parseMasterFile } from '../master-file.ts';
import type { Fields, RdataToken } from './kit.ts';

/** 'ok', or the code of the ApiError the call threw (anything else fails the test). */
export function codeOf(fn: () => unknown): string {
  try {
    fn();
    return 'ok';
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return e.code;
  }
}

interface ReadsText<D> {
  readonly type: string;
  fromText(owner: string, rdata: readonly RdataToken[], origin: string): Fields;
  parse(fields: Fields, zone: string): D;
}

/** A zone file's records of one type read back as add fields, then parsed: the import's path. */
export function importedAs<D>(t: ReadsText<D>, text: string, zone: string): D[] {
  const { records, errors } = parseMasterFile(text, `${zone}.`);
  assert.deepEqual(errors, []);
  return records
    .filter((r) => r.type === t.type)
    .map((r) => {
      const owner = r.owner === `${zone}.` ? '' : r.owner.slice(0, -zone.length - 2);
      return t.parse(t.fromText(owner, r.rdata, r.origin), zone);
    });
}

/** Runs a zone checker (named-checkzone, kzonecheck) on zone text written to a temporary file. */
export function checkZoneText(tool: string, args: (file: string) => string[], text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-rr-'));
  try {
    const file = join(dir, 'zone');
    writeFileSync(file, text);
    const r = spawnSync(tool, args(file), { encoding: 'utf8' });
    return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
