/**
 * Exit codes of the user commands, by outcome, so that a script can tell
 * "fix the call" from "try again later" from "log in" without parsing
 * text (docs/client.md lists them).
 */
export const EXIT = {
  ok: 0,
  /** The API answered an error; its spec code is on stderr. */
  api: 1,
  /** The command line was wrong; nothing was sent. */
  usage: 2,
  /** No answer: connection refused, DNS, timeout, TLS (certificate) failure. */
  connection: 3,
  /** No config, or the session is gone and no password is at hand for a fresh login. */
  notLoggedIn: 4,
  /** The call succeeded but what it reports failed: publish or import errors, an awaited audit that failed. */
  failed: 5,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the CLI reports itself: a message for stderr and the exit code. */
export class CliError extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export const usage = (message: string) => new CliError(EXIT.usage, message);
