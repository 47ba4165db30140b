import {
  type CallParams,
  type CallReply,
  type Fields,
  type Loose,
  type ScriptName,
  VigilApiError,
  VigilClient,
} from '../../client/index.ts';
import { askHidden } from './prompt.ts';
import { readConfig, type UserConfig, writeConfig } from './config.ts';
import { CliError, EXIT } from './exit.ts';

/** Codes that mean "log in again", not "fix the call": exit EXIT.notLoggedIn. */
const LOGIN_CODES = new Set(['sessionTimeout', 'sessionAuthenticationFailure', 'invalid apikey - not in db']);

/**
 * A logged-in client from the config `vigil login` wrote. A call that
 * answers `sessionTimeout` logs in afresh once and is sent again: with the
 * kept password (login --remember-password), else by asking on a terminal;
 * without either the command ends "not logged in". The new token is saved.
 */
export class UserSession {
  readonly client: VigilClient;

  private constructor(readonly config: UserConfig) {
    this.client = clientFor(config.url, config.ca);
    this.client.apikey = config.apikey;
    this.client.sessionToken = config.sessionToken;
  }

  static open(): UserSession {
    return new UserSession(readConfig());
  }

  /**
   * Calls a script, typed by the script table as the SDK's `call`; any failure comes out as a CliError naming
   * the script.
   */
  async call<S extends ScriptName>(script: S, fields: CallParams<S>): Promise<Loose<CallReply<S>>> {
    try {
      return (await this.send(script, fields as Fields)) as Loose<CallReply<S>>;
    } catch (err) {
      throw explain(err, script);
    }
  }

  private async send(script: string, fields: Fields): Promise<Record<string, any>> {
    try {
      return await this.client.call(script, fields);
    } catch (err) {
      if (!(err instanceof VigilApiError) || err.code !== 'sessionTimeout') throw err;
    }
    await this.relogin();
    return this.client.call(script, fields);
  }

  private async relogin(): Promise<void> {
    let password = this.config.password;
    if (password === undefined && process.stdin.isTTY)
      password = await askHidden(`Session expired; password for ${this.config.userid}: `);
    if (password === undefined) {
      throw new CliError(
        EXIT.notLoggedIn,
        'sessionTimeout: the session expired; run vigil login again (or log in with --remember-password)',
      );
    }
    const token = await this.client.login(this.config.apikey, this.config.userid, password);
    writeConfig({ ...this.config, sessionToken: token });
  }

  close(): void {
    this.client.close();
  }
}

/** Runs a command's body with the logged-in session, closed afterwards. */
export async function withSession<T>(body: (s: UserSession) => Promise<T>): Promise<T> {
  const s = UserSession.open();
  try {
    return await body(s);
  } finally {
    s.close();
  }
}

export function clientFor(url: string, ca: string | undefined): VigilClient {
  return new VigilClient({ baseUrl: url, ca });
}

/**
 * A failure as the user reads it: the message for stderr and the exit
 * code. An API error prints its spec code first, as the API spells it,
 * so that `2>&1 | grep` and scripts can match it.
 */
export function explain(err: unknown, script?: string): CliError {
  if (err instanceof CliError) return err;
  if (err instanceof VigilApiError) {
    const where = script ? ` (${script})` : '';
    if (LOGIN_CODES.has(err.code)) return new CliError(EXIT.notLoggedIn, `${err.code}${where}: run vigil login again`);
    return new CliError(EXIT.api, `${err.code}${where}`);
  }
  const code = (err as NodeJS.ErrnoException)?.code;
  if (typeof code === 'string') {
    // Node's TLS codes (DEPTH_ZERO_SELF_SIGNED_CERT, ERR_TLS_CERT_ALTNAME_INVALID, …) and socket codes
    // (ECONNREFUSED, …).
    const tls = /CERT|SELF_SIGNED|TLS|SSL|EPROTO/.test(code);
    const hint = tls
      ? ": the server's certificate is not trusted; give its certificate with vigil login --cacert FILE"
      : '';
    return new CliError(EXIT.connection, `cannot reach the server: ${code}${hint}`);
  }
  return new CliError(EXIT.api, (err as Error)?.message ?? String(err));
}
