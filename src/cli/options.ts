import { InvalidArgumentError, Option } from 'commander';
import { DEFAULTS } from '../config.ts';
import { parseDuration } from '../duration.ts';

/** `--data DIR` / VIGIL_DATA: every subcommand that touches state takes it. */
export const dataOption = () =>
  new Option('--data <dir>', 'data directory').env('VIGIL_DATA').default(DEFAULTS.dataDir);

export const dbOption = () =>
  new Option('--db <url>', 'postgres://… for a shared PostgreSQL (default: SQLite file in the data directory)').env(
    'VIGIL_DB',
  );

/** `--dnssec-key-file`: serve and the admin commands that sign must read the same file (src/dns/dnssec/kek.ts). */
export const dnssecKeyOption = () =>
  new Option(
    '--dnssec-key-file <file>',
    "key-encryption key of the zones' DNSSEC keys (default: DATA/dnssec/kek, made on first use)",
  ).env('VIGIL_DNSSEC_KEY_FILE');

export function parsePort(text: string): number {
  const n = Number(text);
  if (!/^\d{1,5}$/.test(text) || n > 65535) throw new Error(`invalid port '${text}'`);
  return n;
}

/** Turns a plain parser into one commander reports as a usage error. */
export function checked<T>(parse: (text: string) => T) {
  return (text: string): T => {
    try {
      return parse(text);
    } catch (err) {
      throw new InvalidArgumentError((err as Error).message);
    }
  };
}

/** `--audit-workers`: audits one process runs at once; `serve` may say 0 (a `worker` runs them), `worker` may not. */
export const auditWorkers = (min: 0 | 1) => (t: string) => {
  if (!/^(0|[1-9]|[1-5]\d|6[0-4])$/.test(t) || Number(t) < min) throw new Error(`must be ${min} to 64`);
  return Number(t);
};

/**
 * VIGIL_AUDIT_LEASE (no flag: tests and operators who know why): how long a
 * running audit stays held without a renewal; docs/workers.md.
 */
export function auditLeaseMs(): number | undefined {
  const text = process.env.VIGIL_AUDIT_LEASE;
  if (!text) return undefined;
  const ms = parseDuration(text);
  if (ms < 1000) throw new Error('VIGIL_AUDIT_LEASE: at least 1s');
  return ms;
}
