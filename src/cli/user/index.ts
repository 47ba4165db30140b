import type { Command } from 'commander';
import { auditCommand } from './audit.ts';
import { usageExits } from './command.ts';
import { dnsCommand } from './dns.ts';
import { loginCommand } from './login.ts';

/**
 * The user commands: a user of a running Vigil, over its HTTPS API with
 * the SDK (src/client/), never the store. docs/client.md is their guide.
 */
export function userCommands(): Command[] {
  return [loginCommand(), dnsCommand(), auditCommand()].map(usageExits);
}
