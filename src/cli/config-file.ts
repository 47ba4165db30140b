import { readFileSync } from 'node:fs';
import type { Command, Option } from 'commander';

/**
 * `serve --config FILE` (and `worker --config FILE`): the command's flags
 * as `key = value` lines, the key being the flag's name without `--`:
 *
 *     # /etc/vigil/vigil.conf
 *     https-port = 443
 *     secondaries = 192.0.2.53,198.51.100.53:5353
 *
 * Every setting is one scalar or comma list, which a flag and an env
 * variable already carry as text, so each value goes through the flag's own
 * parser and check; JSON would add quoting and types that the parsers
 * undo, and allows no comments. `#` starts a comment only at the start of a
 * line, so values (an SMTP URL's password) may hold one.
 *
 * Precedence is commander's own: a value from the command line or the
 * environment is never replaced; a file value replaces only a default.
 * Every line is checked, overridden or not, so a bad file fails at this
 * start, not at the one after a flag is dropped.
 */
export function applyConfigFile(cmd: Command, file: string): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(
      `config file ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  const byKey = new Map<string, Option>();
  for (const o of cmd.options) if (o.long && o.long !== '--config') byKey.set(o.long.slice(2), o);
  const seen = new Map<string, number>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const where = `config file ${file}, line ${i + 1}`;
    const eq = line.indexOf('=');
    if (eq < 0) throw new Error(`${where}: expected 'key = value'`);
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    const option = byKey.get(key);
    if (!option)
      throw new Error(`${where}: unknown key '${key}' (the keys are the ${cmd.name()} flags without --, e.g. data)`);
    if (value === '') throw new Error(`${where}: ${key}: no value (leave the line out for the default)`);
    if (seen.has(key)) throw new Error(`${where}: '${key}' again (first on line ${seen.get(key)})`);
    seen.set(key, i + 1);
    let parsed: unknown = value;
    if (option.parseArg) {
      try {
        parsed = option.parseArg(value, undefined);
      } catch (err) {
        throw new Error(`${where}: ${key}: ${(err as Error).message}`);
      }
    }
    const name = option.attributeName();
    const source = cmd.getOptionValueSource(name);
    if (source === undefined || source === 'default') cmd.setOptionValueWithSource(name, parsed, 'config');
  });
}
