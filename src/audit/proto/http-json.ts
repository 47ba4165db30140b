/**
 * JSON over HTTP for the checks of web APIs (Jupyter, DevTools, container
 * engines, download managers): a body parsed only when the status says
 * the request was served, and a record only when it is a JSON object.
 */
import type { Net } from '../engine/types.ts';
import { type HttpAnswer, httpRequest } from './http.ts';

/** The object a JSON value is, or null (arrays, scalars, null). */
export const asRecord = (v: unknown): Record<string, unknown> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;

/** A response's body as JSON, or undefined when it is not JSON. */
export function bodyJson(a: HttpAnswer | null): unknown {
  if (!a) return undefined;
  try {
    return JSON.parse(a.raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** GET `target` answered 200: its JSON (undefined otherwise). */
export async function getJson(
  net: Net,
  port: number,
  tls: boolean,
  target: string,
  maxBytes = 65536,
): Promise<unknown> {
  const a = await httpRequest(net, port, tls, { target, timeoutMs: 5000, maxBytes, endAtLength: true });
  return a?.status === 200 ? bodyJson(a) : undefined;
}
