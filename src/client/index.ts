import { Agent, request } from 'node:https';
import { request as plainRequest } from 'node:http';
import { CONTRACTS, SHARED_NAMES, sharedOperation, type ScriptName, type SharedName } from '../api/contract/index.ts';
import type { ErrorCode } from '../errors.ts';
import type { CallParams, CallReply, MethodOptions, ScriptMethods } from './types.ts';

export type * from './types.ts';

/** What the server answered, before any interpretation. */
export interface RawReply {
  http: number;
  contentType: string;
  /** The `Retry-After` header of a throttled reply (HTTP 429), in seconds. */
  retryAfter?: string;
  body: any;
}

export interface ClientOptions {
  /** e.g. `https://127.0.0.1:8443` */
  baseUrl: string;
  /** PEM of the server's certificate (Vigil's self-signed one), to trust it. */
  ca?: string;
  /** false trusts any certificate: only for local testing. */
  rejectUnauthorized?: boolean;
  /** Source address to connect from (e.g. another 127.x address in tests). */
  localAddress?: string;
  /** Connections kept open to the server at most (default: Node's, unbounded). */
  maxSockets?: number;
  /**
   * The account's credentials: the client then logs in by itself before its
   * first call and again, once, when a call answers `sessionTimeout`.
   * Without them `login` is the caller's, and an expired session is theirs to renew.
   */
  credentials?: { apikey: string; userid: string; password: string };
}

/** A reply with status other than "0": its code is the spec's error code. */
export class VigilApiError extends Error {
  /** The spec's code; `http <status>` when the reply was not the API's JSON at all. */
  constructor(
    readonly code: ErrorCode | `http ${number}`,
    readonly reply: RawReply,
  ) {
    super(code);
  }
}

export type Fields = Record<string, string | number | undefined>;

/**
 * The reply type of a typed `call`: the declared fields, a text, number or
 * boolean one typed, an optional, object or array one as `any`, and any
 * other name allowed. `call` keeps the loose reading dozens of tests and
 * scripts rely on (spec 4: a client ignores fields it does not know); the
 * per-script methods (`dnsGetDomainList()`) give the strict reply.
 */
export type Loose<T> = {
  [K in keyof T]-?: undefined extends T[K] ? any : T[K] extends string | number | boolean ? T[K] : any;
} & Record<string, any>;

export function encodeForm(fields: Fields): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) p.append(k, String(v));
  return p.toString();
}

/**
 * The typed API client: one POST per call, form-encoded, JSON back.
 * Keeps the connection alive; after `login` it sends the key and token itself.
 */
// The interface below types the methods added to the prototype from the script table.
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: see above
export class VigilClient {
  private readonly agent: Agent;
  private readonly url: URL;
  apikey: string | undefined;
  sessionToken: string | undefined;

  constructor(private readonly options: ClientOptions) {
    this.url = new URL(options.baseUrl);
    this.agent = new Agent({
      keepAlive: true,
      ca: options.ca,
      rejectUnauthorized: options.rejectUnauthorized ?? true,
      maxSockets: options.maxSockets,
    });
  }

  /** Any method, path and body: for transport-level use and tests. */
  raw(method: string, path: string, body = '', headers: Record<string, string> = {}): Promise<RawReply> {
    const secure = this.url.protocol === 'https:';
    const send = secure ? request : plainRequest;
    // A header given as '' is left out altogether (e.g. no content-type).
    const allHeaders = Object.fromEntries(
      Object.entries({
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(Buffer.byteLength(body)),
        ...headers,
      }).filter(([, v]) => v !== ''),
    );
    return new Promise((resolve, reject) => {
      const req = send(
        {
          host: this.url.hostname.replace(/^\[|\]$/g, ''),
          port: this.url.port,
          method,
          path,
          agent: secure ? this.agent : undefined,
          localAddress: this.options.localAddress,
          headers: allHeaders,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: any = text;
            try {
              parsed = JSON.parse(text);
            } catch {}
            const retryAfter = res.headers['retry-after'];
            resolve({
              http: res.statusCode ?? 0,
              contentType: String(res.headers['content-type'] ?? ''),
              ...(retryAfter ? { retryAfter } : {}),
              body: parsed,
            });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  /** POSTs a script with the given fields as they are (nothing added). */
  post(script: string, fields: Fields): Promise<RawReply> {
    return this.raw('POST', `${this.url.pathname.replace(/\/$/, '')}/api/${script}`, encodeForm(fields));
  }

  /**
   * Calls a script with the session's key and token; throws VigilApiError on
   * an error reply. A script of the table gets its typed fields and reply;
   * any name and fields still go through the untyped form.
   */
  call<S extends ScriptName>(script: S, fields: CallParams<S>): Promise<Loose<CallReply<S>>>;
  call(script: string, fields?: Fields): Promise<Record<string, any>>;
  async call(script: string, given: object = {}): Promise<any> {
    const fields = given as Fields;
    const creds = this.options.credentials;
    if (creds && script !== 'auth.php' && this.sessionToken === undefined)
      await this.login(creds.apikey, creds.userid, creds.password);
    try {
      return await this.send(script, fields);
    } catch (err) {
      // A fresh login, once, when the client holds the credentials (spec 5.4: a token lives 24 hours).
      if (!creds || script === 'auth.php' || !(err instanceof VigilApiError) || err.code !== 'sessionTimeout')
        throw err;
      await this.login(creds.apikey, creds.userid, creds.password);
      return this.send(script, fields);
    }
  }

  private async send(script: string, fields: Fields): Promise<Record<string, any>> {
    const reply = await this.post(script, { apikey: this.apikey, sessionToken: this.sessionToken, ...fields });
    const body = reply.body;
    if (typeof body !== 'object' || body === null || String(body.status) !== '0') {
      throw new VigilApiError(typeof body?.error === 'string' ? body.error : `http ${reply.http}`, reply);
    }
    return body;
  }

  /** auth.php; keeps the key and the token for later calls. */
  async login(apikey: string, userid: string, password: string): Promise<string> {
    this.apikey = apikey;
    const reply = await this.send('auth.php', { apikey, userid, password, sessionToken: undefined });
    this.sessionToken = reply.sessionToken as string;
    return this.sessionToken;
  }

  close(): void {
    this.agent.destroy();
  }
}

// One method per script of the table (types in ./types.ts): `dnsAddA(params)` posts dnsAddA.php.
export interface VigilClient extends ScriptMethods {}

/** Where an operation's call goes: its own name, or the shared name asked for when the fields land there. */
function target(script: ScriptName, fields: Fields, via: SharedName | undefined): string {
  if (via === undefined || !(SHARED_NAMES[via] as readonly string[]).includes(script)) return script;
  return sharedOperation(via, (f) => fields[f] !== undefined) === script ? via : script;
}

for (const script of Object.keys(CONTRACTS) as ScriptName[]) {
  if (script === 'auth.php') continue;
  Object.defineProperty(VigilClient.prototype, script.slice(0, -'.php'.length), {
    value(this: VigilClient, params: Fields = {}, options: MethodOptions<ScriptName> = {}) {
      return this.call(target(script, params, options.via as SharedName | undefined), params);
    },
  });
}
