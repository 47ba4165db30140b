import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError, EXIT } from './exit.ts';

/**
 * What `vigil login` keeps for the user commands. The password is kept only
 * when asked (`login --remember-password`): docs/client.md weighs the risk.
 */
export interface UserConfig {
  url: string;
  apikey: string;
  userid: string;
  sessionToken: string;
  /** PEM of the server's certificate as given with `--cacert` (copied: the file may move). */
  ca?: string;
  password?: string;
}

/** `$VIGIL_CONFIG`, else `~/.config/vigil/config.json` (XDG_CONFIG_HOME when set, as other tools do). */
export function configPath(): string {
  if (process.env.VIGIL_CONFIG) return process.env.VIGIL_CONFIG;
  const base = process.env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'vigil', 'config.json');
}

export function readConfig(): UserConfig {
  const file = configPath();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new CliError(EXIT.notLoggedIn, `not logged in (no ${file}): run vigil login`);
    throw new CliError(
      EXIT.notLoggedIn,
      `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  let c: Partial<UserConfig>;
  try {
    c = JSON.parse(text);
  } catch {
    throw new CliError(EXIT.notLoggedIn, `${file} is not JSON: run vigil login again`);
  }
  for (const k of ['url', 'apikey', 'userid', 'sessionToken'] as const) {
    if (typeof c[k] !== 'string') throw new CliError(EXIT.notLoggedIn, `${file} has no ${k}: run vigil login again`);
  }
  return c as UserConfig;
}

/**
 * Writes the file whole, mode 0600, in a directory of mode 0700: it holds
 * a session token (and maybe a password). The file is written under a
 * temporary name created 0600 and renamed, so no reader ever sees it half
 * written or, for a moment, with the umask's wider mode. chmod after
 * creation too: an existing directory (or one made under an odd umask)
 * keeps its mode otherwise.
 */
export function writeConfig(c: UserConfig): string {
  const file = configPath();
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Only a directory we made for ourselves is narrowed: $VIGIL_CONFIG may point into a shared one (/tmp).
  if (!process.env.VIGIL_CONFIG) chmodSync(dir, 0o700);
  const tmp = `${file}.${process.pid}.tmp`;
  // O_EXCL: never through a file or symlink someone else put there (VIGIL_CONFIG may be in /tmp); a stale one
  // of ours goes first.
  rmSync(tmp, { force: true });
  writeFileSync(tmp, `${JSON.stringify(c, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return file;
}
