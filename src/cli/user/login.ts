import { readFileSync } from 'node:fs';
import { askHidden, firstLine } from './prompt.ts';
import { type UserConfig, writeConfig } from './config.ts';
import { act, userCommand } from './command.ts';
import { CliError, EXIT, usage } from './exit.ts';
import { printJson, printText } from './output.ts';
import { clientFor, explain } from './session.ts';

interface LoginOptions {
  url: string;
  apikey: string;
  userid: string;
  cacert?: string;
  passwordStdin?: boolean;
  rememberPassword?: boolean;
  json?: boolean;
}

/** Only https: the API answers plain HTTP with notSSL anyway, and the token must not cross in clear. */
function checkedUrl(text: string): string {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw usage(`--url: not a URL: ${text}`);
  }
  if (u.protocol !== 'https:') throw usage('--url: must be https://HOST:PORT');
  return u.origin + u.pathname.replace(/\/$/, '');
}

/**
 * The password: one line of stdin with --password-stdin (a pipe), else
 * asked on the terminal without echo. Never a flag: flags show in `ps`.
 */
async function password(o: LoginOptions): Promise<string> {
  if (process.stdin.isTTY) return askHidden(`Password for ${o.userid}: `);
  if (o.passwordStdin) return firstLine();
  throw usage('no terminal to ask the password on: pipe it in with --password-stdin');
}

export function loginCommand() {
  return userCommand(
    'login',
    'log in to a running Vigil and keep the session in $VIGIL_CONFIG (default ~/.config/vigil/config.json)',
  )
    .requiredOption('--url <url>', 'the API, https://HOST:PORT')
    .requiredOption('--apikey <key>', "the account's API key")
    .requiredOption('--userid <userid>', 'the account')
    .option('--cacert <file>', "PEM certificate to trust for the server (Vigil's own is DATA/tls/cert.pem)")
    .option('--password-stdin', 'read the password from the first line of standard input')
    .option(
      '--remember-password',
      'keep the password in the config (mode 0600) for a fresh login when the session expires',
    )
    .action(
      act(async (o: LoginOptions) => {
        const url = checkedUrl(o.url);
        let ca: string | undefined;
        if (o.cacert !== undefined) {
          try {
            ca = readFileSync(o.cacert, 'utf8');
          } catch (err) {
            throw usage(`--cacert: cannot read ${o.cacert} (${(err as NodeJS.ErrnoException).code})`);
          }
          if (!ca.includes('-----BEGIN CERTIFICATE-----'))
            throw usage(`--cacert: ${o.cacert} holds no PEM certificate`);
        }
        const pw = await password(o);
        const client = clientFor(url, ca);
        let sessionToken: string;
        try {
          sessionToken = await client.login(o.apikey, o.userid, pw);
        } catch (err) {
          const e = explain(err, 'auth.php');
          // A refused login is an API answer (invalidLogin, …), not "log in again".
          throw e.exitCode === EXIT.notLoggedIn
            ? new CliError(EXIT.api, e.message.replace(/: run vigil login again$/, ''))
            : e;
        } finally {
          client.close();
        }
        const config: UserConfig = {
          url,
          apikey: o.apikey,
          userid: o.userid,
          sessionToken,
          ...(ca ? { ca } : {}),
          ...(o.rememberPassword ? { password: pw } : {}),
        };
        const file = writeConfig(config);
        if (o.json) printJson({ url, userid: o.userid, config: file, passwordKept: Boolean(o.rememberPassword) });
        else printText(`logged in as ${o.userid} at ${url}; session kept in ${file}`);
      }),
    );
}
