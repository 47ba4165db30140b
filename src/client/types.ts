import type { CONTRACTS, ObjectOf, ParamsOf, ScriptName, SHARED_NAMES } from '../api/contract/index.ts';

/**
 * The client's types, inferred by TypeScript from the script table's
 * `as const` declarations (src/api/contract/): a parameter or reply field
 * added there is typed here with nothing to regenerate.
 */
export type { ErrorCode } from '../errors.ts';
export type { ScriptName } from '../api/contract/index.ts';

type Contracts = typeof CONTRACTS;
type Shared = typeof SHARED_NAMES;

/** The form fields of one operation (apikey and sessionToken are the client's business). */
export type ScriptParams<S extends ScriptName> = ParamsOf<Contracts[S]['params']>;
/** Its success reply: `status` "0" and the declared fields. */
export type ScriptReply<S extends ScriptName> = { status: '0' } & ObjectOf<Contracts[S]['reply']>;

/** A shared name takes the fields of any operation it serves, and answers any of their replies. */
type Served<S extends ScriptName> = S extends keyof Shared ? S | Shared[S][number] : S;
export type CallParams<S extends ScriptName> = { [O in Served<S>]: ScriptParams<O> }[Served<S>];
export type CallReply<S extends ScriptName> = { [O in Served<S>]: ScriptReply<O> }[Served<S>];

/** Operations that a shared name also serves, and that name. */
type SharedOf<S extends ScriptName> = { [N in keyof Shared]: S extends Shared[N][number] ? N : never }[keyof Shared];

export interface MethodOptions<S extends ScriptName> {
  /**
   * Post to the shared name (spec note on 14, 18-20) instead of the
   * operation's own. The client still lands on this operation: when the
   * fields would make the server choose another one, it posts to the own name.
   */
  via?: SharedOf<S>;
}

type MethodName<S> = S extends `${infer M}.php` ? M : never;
type Method<S extends ScriptName> =
  {} extends ScriptParams<S>
    ? (params?: ScriptParams<S>, options?: MethodOptions<S>) => Promise<ScriptReply<S>>
    : (params: ScriptParams<S>, options?: MethodOptions<S>) => Promise<ScriptReply<S>>;

/** One method per script, named as the script without `.php` (auth.php is `login`). */
export type ScriptMethods = { [S in Exclude<ScriptName, 'auth.php'> as MethodName<S>]: Method<S> };
