// The console's only data path: the API scripts, POSTed as forms to /api on
// this origin (spec section 4), replies read as JSON. The types come from
// the project's typed client (src/client); its transport uses node:https,
// so the browser gets this small fetch one instead.
import type { CallReply, ErrorCode, ScriptName } from '../src/client/types.ts';

export type Fields = Record<string, string | undefined>;

export class ApiCallError extends Error {
  constructor(
    readonly code: ErrorCode | string,
    readonly script: string,
  ) {
    super(code);
  }
}

/**
 * The session lives in sessionStorage: it is the tab's and ends with it
 * (issue 17: never localStorage, which every tab and every later visit share).
 */
const KEY = 'vigil.session';

export interface Session {
  apikey: string;
  userid: string;
  sessionToken: string;
}

export function loadSession(): Session | null {
  try {
    const s = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
    return s && typeof s.sessionToken === 'string' ? s : null;
  } catch {
    return null;
  }
}

export function saveSession(s: Session | null): void {
  if (s) sessionStorage.setItem(KEY, JSON.stringify(s));
  else sessionStorage.removeItem(KEY);
}

async function post(script: string, fields: Fields): Promise<any> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) body.set(k, v);
  const res = await fetch(`/api/${script}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
    credentials: 'omit',
    cache: 'no-store',
  });
  let reply: any;
  try {
    reply = await res.json();
  } catch {
    throw new ApiCallError('malformedReply', script);
  }
  if (String(reply.status) !== '0') throw new ApiCallError(String(reply.error ?? 'unknown'), script);
  return reply;
}

export async function login(apikey: string, userid: string, password: string): Promise<Session> {
  const r = await post('auth.php', { apikey, userid, password });
  return { apikey, userid, sessionToken: r.sessionToken };
}

/** Called when the server says the session is over; the app shows the login form again. */
let onSessionEnd: (code: string) => void = () => {};
export function whenSessionEnds(f: (code: string) => void): void {
  onSessionEnd = f;
}

export async function call<S extends ScriptName>(
  script: S,
  fields: Fields = {},
): Promise<CallReply<S> & Record<string, any>> {
  const s = loadSession();
  if (!s) throw new ApiCallError('sessionAuthenticationFailure', script);
  try {
    return await post(script, { ...fields, apikey: s.apikey, sessionToken: s.sessionToken });
  } catch (err) {
    if (err instanceof ApiCallError && (err.code === 'sessionTimeout' || err.code === 'sessionAuthenticationFailure'))
      onSessionEnd(err.code);
    throw err;
  }
}
