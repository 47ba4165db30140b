import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * A hot-path query built and compiled once, then run with new parameters.
 * Building and compiling a Kysely query costs more than running a point
 * query on SQLite, so the few queries of every request skip it. The query
 * is built with marker values in place of the arguments; at run time each
 * marker is swapped for its argument, other constants stay as compiled.
 */
export function precompile<Row, Args extends unknown[]>(
  build: (...markers: string[]) => Compilable<Row>,
  arity: number,
): (executor: Kysely<Database>, ...args: Args) => Promise<Row[]> {
  const markers = Array.from({ length: arity }, (_, i) => `\u0000precompiled-arg-${i}`);
  const compiled: CompiledQuery<Row> = build(...markers).compile();
  const slots = compiled.parameters.map((p) => markers.indexOf(p as string));
  if (markers.some((_, i) => !slots.includes(i))) throw new Error('precompile: an argument is not used by the query');
  // The executor may be a transaction: one SQLite connection must not wait for itself.
  return async (executor, ...args) => {
    const parameters = compiled.parameters.map((p, i) => (slots[i]! >= 0 ? args[slots[i]!] : p));
    return (await executor.executeQuery<Row>({ ...compiled, parameters })).rows;
  };
}
