/**
 * The remote-control APIs of download managers, over HTTP:
 * - aria2's JSON-RPC 2.0 at POST /jsonrpc (aria2c(1), "RPC interface"):
 *   with --rpc-secret every method but system.listMethods and
 *   system.listNotifications needs "token:<secret>" as its first parameter
 *   and answers error 1 "Unauthorized" without it;
 * - Transmission's RPC at POST /transmission/rpc (Transmission's
 *   docs/rpc-spec.md): a first request is answered 409 with an
 *   X-Transmission-Session-Id header (CSRF protection, not authentication),
 *   which the next request repeats; rpc-authentication-required answers
 *   401, an rpc-whitelist that leaves the client out 403.
 * Only reads are sent (aria2.getVersion, aria2.getGlobalOption,
 * session-get).
 */
import type { Net } from '../engine/types.ts';
import { httpRequest } from './http.ts';
import { asRecord as record, bodyJson } from './http-json.ts';

const post = (
  net: Net,
  port: number,
  tls: boolean,
  target: string,
  body: string,
  headers: Record<string, string> = {},
) =>
  httpRequest(net, port, tls, {
    method: 'POST',
    target,
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
    timeoutMs: 5000,
    maxBytes: 65536,
  });

const parse = (a: Parameters<typeof bodyJson>[0]) => record(bodyJson(a));

export const ARIA2_PATH = '/jsonrpc';

/** One aria2 JSON-RPC call without parameters: its `result` object, or null (refused, an error, not aria2). */
export async function aria2Call(
  net: Net,
  port: number,
  tls: boolean,
  method: string,
): Promise<{ status: number; result: Record<string, unknown> } | null> {
  const a = await post(net, port, tls, ARIA2_PATH, JSON.stringify({ jsonrpc: '2.0', id: 'vigil', method, params: [] }));
  const j = parse(a);
  const result = record(j?.result);
  return a && j && j.jsonrpc === '2.0' && j.id === 'vigil' && result ? { status: a.status, result } : null;
}

export const TRANSMISSION_PATH = '/transmission/rpc';

/**
 * Transmission's session-get, with the session-id dance: the arguments it
 * answered (version, download-dir, rpc-version …) with "result": "success",
 * or the status of the refusal (401, 403, 409 twice …) as `refused`.
 */
export async function transmissionSession(
  net: Net,
  port: number,
  tls: boolean,
): Promise<{ args: Record<string, unknown>; sessionId: string } | { refused: number } | null> {
  const body = JSON.stringify({ method: 'session-get', tag: 1 });
  const first = await post(net, port, tls, TRANSMISSION_PATH, body);
  if (!first) return null;
  const id = first.headers['x-transmission-session-id'];
  if (first.status !== 409 || !id || !/^[\w-]{8,128}$/.test(id)) return { refused: first.status };
  const second = await post(net, port, tls, TRANSMISSION_PATH, body, { 'X-Transmission-Session-Id': id });
  if (!second) return null;
  const j = parse(second);
  const args = record(j?.arguments);
  if (second.status !== 200 || j?.result !== 'success' || !args) return { refused: second.status };
  return { args, sessionId: id };
}
