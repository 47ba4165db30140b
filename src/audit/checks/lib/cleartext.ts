import { randomBytes } from 'node:crypto';

/**
 * Logins in clear text on FTP, IMAP, POP3 and SMTP: the server lets a
 * client send a password before (or without) TLS. Each check asks the way a
 * client would and reads the answer; none sends a password. Sources: RFC
 * 4217 (FTP AUTH TLS), RFC 3501 §6.2.3 and §7.2.1 (IMAP LOGINDISABLED),
 * RFC 2595 (STLS), RFC 4954 (SMTP AUTH), RFC 8314 (cleartext considered
 * obsolete for mail access).
 */
export const line = (t: string) => t.split(/\r?\n/)[0]!.slice(0, 100);
/** A user name that exists nowhere: the reply tells the policy, not the account's existence. */
export const probeUser = () => `vigil-${randomBytes(4).toString('hex')}`;
