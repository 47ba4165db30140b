import { Command } from 'commander';
import { userCommands } from './user/index.ts';
import { version } from './version.ts';

/** The user commands (src/cli/user/): clients of a running server. */
const USER_COMMANDS = new Set(['login', 'dns', 'audit']);

export async function main(argv: string[]): Promise<void> {
  // A user command loads only its own modules: the operator's commands bring
  // the store's drivers (about 1 s of loading per run, measured), which a
  // client of the API never touches. `vigil --help` still lists everything.
  if (USER_COMMANDS.has(argv[2] ?? '')) {
    const program = new Command('vigil').showHelpAfterError();
    for (const c of userCommands()) program.addCommand(c);
    return parse(program, argv);
  }
  const [{ adminCommand }, { serveCommand }, { workerCommand }] = await Promise.all([
    import('./admin.ts'),
    import('./serve.ts'),
    import('./worker.ts'),
  ]);
  const program = new Command('vigil')
    .description('Vigil: security audits and DNS hosting behind one HTTPS API')
    .version(version(), '--version', 'print the version')
    .showHelpAfterError()
    .addCommand(serveCommand())
    .addCommand(adminCommand())
    .addCommand(workerCommand());
  // The user commands (login, dns, audit): clients of a running server.
  for (const c of userCommands()) program.addCommand(c);
  program.addCommand(
    // Internal: a name-server worker that `serve --dns-workers N` starts.
    new Command('dns-worker').action(async () => {
      const { serverLogger } = await import('../log-format.ts');
      const { runDnsWorker } = await import('../dns/server/workers.ts');
      await runDnsWorker(await serverLogger(process.env.VIGIL_LOG_LEVEL ?? 'info'));
    }),
    { hidden: true },
  );
  return parse(program, argv);
}

async function parse(program: Command, argv: string[]): Promise<void> {
  try {
    await program.parseAsync(argv);
  } catch (err) {
    process.stderr.write(`vigil: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
