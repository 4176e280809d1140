import type { CompiledQuery, QueryResult } from 'kysely';
import type { Db } from './index';

/**
 * A query built and compiled once per dialect, then run with new values (issue 17). Kysely builds a
 * query's tree and compiles it to SQL on every call: about a fifth of a refresh's CPU went there.
 * The hot queries of every sign-in, refresh and authenticated call are written with `precompiled`:
 *
 *   const findUser = precompiled((db, p: Params<{ id: string }>) => db.selectFrom('users').selectAll().where('id', '=', p.id));
 *   const row = (await findUser(db, { id })).rows[0];
 *
 * `p.<name>` stands for a value in the query; the compiled statement's parameters are those
 * stand-ins, replaced by the call's values in place. A stand-in must be a whole value (no value
 * lists, no values Kysely inlines into the SQL text). The text is the same on every call, so
 * SQLite's statement cache and PostgreSQL's prepared statements (pg-prepared.ts) serve it.
 */
export type Params<P> = { readonly [K in keyof P]: P[K] };

/** What stands for a named value while the query is built. */
class StandIn {
  constructor(readonly name: string) {
    Object.freeze(this);
  }
}

export function precompiled<P extends Record<string, unknown>, O>(
  build: (db: Db, p: Params<P>) => { compile(): CompiledQuery<O> },
): (db: Db, values: P) => Promise<QueryResult<O>> {
  // One compiled template per dialect (the adapter's class: SQLite or PostgreSQL).
  const templates = new Map<unknown, { compiled: CompiledQuery<O>; slots: Array<string | null> }>();
  const standIns = new Proxy({} as Params<P>, { get: (_target, name) => (typeof name === 'string' ? new StandIn(name) : undefined) });
  return async (db, values) => {
    const dialect = db.getExecutor().adapter.constructor;
    let template = templates.get(dialect);
    if (!template) {
      const compiled = build(db, standIns).compile();
      const slots = compiled.parameters.map((value) => (value instanceof StandIn ? value.name : null));
      for (const [i, value] of compiled.parameters.entries()) {
        if (slots[i] === null && typeof value === 'object' && value !== null) throw new Error(`precompiled: parameter ${i} of "${compiled.sql}" is an object that is not a stand-in`);
      }
      template = { compiled, slots };
      templates.set(dialect, template);
    }
    const { compiled, slots } = template;
    const parameters = compiled.parameters.map((constant, i) => {
      const name = slots[i] ?? null;
      if (name === null) return constant;
      if (!(name in values)) throw new Error(`precompiled: no value for "${name}" in "${compiled.sql}"`);
      return values[name];
    });
    return db.executeQuery<O>({ ...compiled, parameters, queryId: { queryId: '' } } as CompiledQuery<O>);
  };
}
