/** PostgreSQL frontend/backend protocol 3.0: the startup message and the first backend reply. */

/** PostgreSQL StartupMessage, protocol 3.0 (protocol docs §55.7): user, database, application_name. */
export function pgStartup(user: string): Buffer {
  const params = Buffer.from(`user\0${user}\0database\0postgres\0application_name\0vigil-audit\0\0`);
  const head = Buffer.alloc(8);
  head.writeInt32BE(8 + params.length, 0);
  head.writeInt32BE(196608, 4);
  return Buffer.concat([head, params]);
}

/** First backend message: 'R' + len + int32 (0 = AuthenticationOk, 3 cleartext, 5 MD5, 10 SASL), 'E' an error. */
export const pgMessageDone = (b: Buffer) => b.length >= 5 && b.length >= 1 + b.readInt32BE(1);
