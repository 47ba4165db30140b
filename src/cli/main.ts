import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { adminCommand } from './admin.ts';
import { serveCommand } from './serve.ts';

/** package.json's version: the same relative path from src/cli/ and dist/cli/. */
function version(): string {
  return JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
}

export async function main(argv: string[]): Promise<void> {
  const program = new Command('vigil')
    .description('Vigil: security audits and DNS hosting behind one HTTPS API')
    .version(version(), '--version', 'print the version')
    .showHelpAfterError()
    .addCommand(serveCommand())
    .addCommand(adminCommand())
    .addCommand(
      // Internal: a name-server worker that `serve --dns-workers N` starts.
      new Command('dns-worker').action(async () => {
        const { pino } = await import('pino');
        const { runDnsWorker } = await import('../dns/server/workers.ts');
        await runDnsWorker(pino({ level: process.env.VIGIL_LOG_LEVEL ?? 'info' }, pino.destination({ dest: 2, sync: false })));
      }),
      { hidden: true },
    );
  try {
    await program.parseAsync(argv);
  } catch (err) {
    process.stderr.write(`vigil: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
