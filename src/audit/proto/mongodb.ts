/** MongoDB wire protocol (OP_MSG, MongoDB 3.6+): the one command the checks send. */

/** BSON for {listDatabases: 1, $db: "admin"} inside an OP_MSG (MongoDB 3.6+). */
export function listDatabasesMsg(): Buffer {
  const e1 = Buffer.concat([Buffer.from([0x10]), Buffer.from('listDatabases\0'), Buffer.from([1, 0, 0, 0])]);
  const str = Buffer.from('admin\0');
  const e2 = Buffer.concat([Buffer.from([0x02]), Buffer.from('$db\0'), Buffer.from([str.length, 0, 0, 0]), str]);
  const body = Buffer.concat([e1, e2, Buffer.from([0])]);
  const doc = Buffer.concat([Buffer.alloc(4), body]);
  doc.writeInt32LE(doc.length);
  const head = Buffer.alloc(16 + 4 + 1);
  head.writeInt32LE(head.length + doc.length, 0);
  head.writeInt32LE(1, 4);
  head.writeInt32LE(2013, 12); // OP_MSG
  return Buffer.concat([head, doc]);
}
