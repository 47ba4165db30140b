import { Command } from 'commander';
import { adminCommand } from './admin.ts';
import { serveCommand } from './serve.ts';
import { userCommands } from './user/index.ts';
import { workerCommand } from './worker.ts';
import { version } from './version.ts';


export async function main(argv: string[]): Promise<void> {
  const program = new Command('vigil')
    .description('Vigil: security audits and DNS hosting behind one HTTPS API')
    .version(version(), '--version', 'print the version')
    .showHelpAfterError()
    .addCommand(serveCommand())
    .addCommand(adminCommand())
    .addCommand(workerCommand());
  // The user commands (login, dns, audit): clients of a running server.
  for (const c of userCommands()) program.addCommand(c);
  program
    .addCommand(
      // Internal: a name-server worker that `serve --dns-workers N` starts.
      new Command('dns-worker').action(async () => {
        const { serverLogger } = await import('../log-format.ts');
        const { runDnsWorker } = await import('../dns/server/workers.ts');
        await runDnsWorker(await serverLogger(process.env.VIGIL_LOG_LEVEL ?? 'info'));
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
