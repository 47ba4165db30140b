import { Command } from 'commander';
import { adminCommand } from './admin.ts';
import { serveCommand } from './serve.ts';

export async function main(argv: string[]): Promise<void> {
  const program = new Command('vigil')
    .description('Vigil: security audits and DNS hosting behind one HTTPS API')
    .showHelpAfterError()
    .addCommand(serveCommand())
    .addCommand(adminCommand());
  try {
    await program.parseAsync(argv);
  } catch (err) {
    process.stderr.write(`vigil: ${(err as Error).message}\n`);
    process.exit(1);
  }
}
