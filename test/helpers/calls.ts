import assert from 'node:assert/strict';
import type { VigilClient } from '../../src/client/index.ts';

/**
 * Calls a script with the client's session and returns its error code, or
 * 'ok'; asserts the spec's reply shape on the way (HTTP 200, an error reply
 * holds only status and error).
 */
export async function replyCode(
  c: VigilClient,
  script: string,
  fields: Record<string, string | undefined>,
): Promise<string> {
  const r = await c.post(script, { apikey: c.apikey, sessionToken: c.sessionToken, ...fields });
  assert.equal(r.http, 200);
  if (r.body.status === '0') return 'ok';
  assert.deepEqual(Object.keys(r.body).sort(), ['error', 'status']);
  return r.body.error;
}
