import type { ErrorCode } from '../../errors.ts';

/**
 * The shape of the script table's declarations: what a script takes, what
 * it needs first, what it answers. Pure data (no node: imports, no domain
 * code), so the typed client (src/client/) carries it without the server,
 * and TypeScript infers the client's parameter and reply types from the
 * `as const` declarations themselves: there is no second copy to keep in step.
 */

/** What a parameter holds; the table checks only `checkedBy: 'table'` ones itself (see ParamSpec). */
export type Kind =
  | 'text'
  | 'domain'
  | 'hostname'
  | 'owner'
  | 'ipv4'
  | 'ipv6'
  | 'ipPatterns'
  | 'addresses'
  | 'email'
  | 'url'
  | 'enum'
  | 'integer'
  | 'hex'
  | 'seq'
  | 'presence'
  | 'zoneText';

export interface ParamSpec {
  readonly required: boolean;
  readonly kind: Kind;
  /** `enum`: the accepted values. */
  readonly values?: readonly string[];
  /** `integer`: the accepted range. */
  readonly min?: number;
  readonly max?: number;
  /**
   * The spec's code for an invalid value (and for a missing one unless `missingCode`); none where the spec
   * fixes none.
   */
  readonly code?: ErrorCode;
  /** The spec's code for an absent or blank value, where it differs from `code`. */
  readonly missingCode?: ErrorCode;
  /**
   * Who checks it. `table`: the API, before the script runs (src/api/validate.ts).
   * `domain`: the domain, because the spec orders a state check before it
   * (a record field is checked after `noSuchDomain`: a name is relative to
   * the zone, and the black-box suite expects that order) or because the
   * check needs more than the field (auth.php checks the key first).
   */
  readonly checkedBy: 'table' | 'domain';
  readonly doc: string;
}

/** JSON of a reply field, in a form both OpenAPI and TypeScript are derived from. */
export type JsonSchema =
  | { readonly type: 'string'; readonly enum?: readonly string[]; readonly doc?: string; readonly optional?: true }
  | { readonly type: 'number' | 'boolean'; readonly nullable?: true; readonly doc?: string; readonly optional?: true }
  /** A string or a number: the members of a record's `data`, by record type. */
  | { readonly type: 'scalar'; readonly doc?: string; readonly optional?: true }
  | { readonly type: 'array'; readonly items: JsonSchema; readonly doc?: string; readonly optional?: true }
  | {
      readonly type: 'object';
      readonly fields: Readonly<Record<string, JsonSchema>>;
      readonly doc?: string;
      readonly optional?: true;
    }
  | { readonly type: 'map'; readonly values: JsonSchema; readonly doc?: string; readonly optional?: true };

/** Checks a script needs before its parameters, in this order, beyond the API key. */
export type Prerequisite = 'session' | 'dnsSubscription' | 'auditEntitlement';

export interface Contract {
  readonly summary: string;
  /**
   * `session` (key and token) first; `dnsSubscription` right after it;
   * `auditEntitlement` after the parameters (it names the audit type they checked).
   */
  readonly requires: readonly Prerequisite[];
  readonly params: Readonly<Record<string, ParamSpec>>;
  /** Success reply fields beside `status`; `optional` ones may be absent. */
  readonly reply: Readonly<Record<string, JsonSchema>>;
  /** The codes particular to the script (the spec's list for it); the common ones are added by `errorsOf`. */
  readonly errors: readonly ErrorCode[];
  /** The code an unexpected failure answers: the spec's system error for it. */
  readonly systemError: ErrorCode;
  /** The code when the store cannot be reached at all; unset: `systemError`. */
  readonly storeDownError?: ErrorCode;
  /** Not a spec script: an unknown field is refused (`unknownParameter`) rather than only logged. */
  readonly extension?: true;
}

/** Every code a script can answer, from its declarations: what OpenAPI and the docs list. */
export function errorsOf(c: Contract): ErrorCode[] {
  const codes: ErrorCode[] = ['notSSL', 'invalid apikey format', 'invalid apikey - not in db'];
  if (c.requires.includes('session')) codes.push('sessionTimeout', 'sessionAuthenticationFailure');
  if (c.storeDownError) codes.push(c.storeDownError);
  if (c.requires.includes('dnsSubscription')) codes.push('dnsEntitlementsOrCreditsMissing');
  if (c.extension) codes.push('unknownParameter');
  for (const p of Object.values(c.params)) for (const code of [p.missingCode, p.code]) if (code) codes.push(code);
  if (c.requires.includes('auditEntitlement')) codes.push('notEntitled');
  codes.push(...c.errors, c.systemError);
  return [...new Set(codes)];
}

// ---- Types derived from the declarations (the SDK's parameter and reply types) ----

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The TypeScript type of a JSON field. */
export type TypeOf<S> = S extends { nullable: true } ? BaseOf<S> | null : BaseOf<S>;
type BaseOf<S> = S extends { type: 'string'; enum: readonly (infer E)[] }
  ? E
  : S extends { type: 'string' }
    ? string
    : S extends { type: 'number' }
      ? number
      : S extends { type: 'boolean' }
        ? boolean
        : S extends { type: 'scalar' }
          ? string | number
          : S extends { type: 'array'; items: infer I }
            ? TypeOf<I>[]
            : S extends { type: 'object'; fields: infer F }
              ? ObjectOf<F>
              : S extends { type: 'map'; values: infer V }
                ? Record<string, TypeOf<V>>
                : never;

export type ObjectOf<F> = Simplify<
  { -readonly [K in keyof F as F[K] extends { optional: true } ? never : K]: TypeOf<F[K]> } & {
    -readonly [K in keyof F as F[K] extends { optional: true } ? K : never]?: TypeOf<F[K]>;
  }
>;

/** A form value a parameter takes: its enum's values, a number where it is one, else text. */
export type ValueOf<P> = P extends { kind: 'enum'; values: readonly (infer E)[] }
  ? E
  : P extends { kind: 'integer' | 'seq' }
    ? number | string
    : string;

export type ParamsOf<P> = Simplify<
  { -readonly [K in keyof P as P[K] extends { required: true } ? K : never]: ValueOf<P[K]> } & {
    -readonly [K in keyof P as P[K] extends { required: true } ? never : K]?: ValueOf<P[K]>;
  }
>;
