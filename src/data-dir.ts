import { chmodSync, mkdirSync, statSync } from 'node:fs';

/**
 * The data directory, the owner's alone whatever the umask (issue 29): made
 * 0700, and an existing one of this user's narrowed to 0700, as systemd's
 * StateDirectoryMode=0700 does at each start of packaging/vigil.service.
 * Inside it every file is made 0600 where it is written (store, TLS,
 * DNSSEC key, outbox); a directory closed to others also closes files an
 * older Vigil left readable. A directory of another user (`--data /tmp`) is
 * left as it is: not ours to change.
 */
export function privateDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = statSync(dir);
  if ((st.mode & 0o077) !== 0 && st.uid === process.getuid?.()) chmodSync(dir, 0o700);
}
