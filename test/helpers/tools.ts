import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from './server.ts';

const run = promisify(execFile);

export function hasTool(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** BIND's zone checker, always in `-i local` mode so it never looks names up. */
export async function namedCheckzone(zone: string, text: string): Promise<{ ok: boolean; output: string }> {
  const file = join(tempDir('vigil-zone-'), `${zone}.zone`);
  writeFileSync(file, text);
  try {
    const { stdout, stderr } = await run('named-checkzone', ['-i', 'local', '-k', 'fail', '-n', 'fail', zone, file]);
    return { ok: true, output: stdout + stderr };
  } catch (err: any) {
    return { ok: false, output: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}
