import { InvalidArgumentError, Option } from 'commander';
import { DEFAULTS } from '../config.ts';

/** `--data DIR` / VIGIL_DATA: every subcommand that touches state takes it. */
export const dataOption = () =>
  new Option('--data <dir>', 'data directory').env('VIGIL_DATA').default(DEFAULTS.dataDir);

export const dbOption = () =>
  new Option('--db <url>', 'postgres://… for a shared PostgreSQL (default: SQLite file in the data directory)').env('VIGIL_DB');

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
