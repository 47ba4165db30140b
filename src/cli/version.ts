import { readFileSync } from 'node:fs';

/** package.json's version: the same relative path from src/cli/ and dist/cli/. */
export function version(): string {
  return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
}
