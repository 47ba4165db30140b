import assert from 'node:assert/strict';

/** Polls until `pred` holds (a throw counts as "not yet"); 30 s at most. */
export async function eventually(pred: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; ) {
    if (await pred().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`timed out waiting for: ${what}`);
}
