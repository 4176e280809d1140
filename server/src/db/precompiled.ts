import type { CompiledQuery, Insertable, Kysely, QueryResult, Updateable } from 'kysely';
import type { Db } from './index';
import { changesOf } from './patch';
import type { Database } from './schema';

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

/** How many column sets one table's precompiled writes keep (the code writes a handful per table). */
const COLUMN_SETS = 32;

/**
 * Writes of whole rows whose columns vary by caller (an insert's row, an update's patch), compiled
 * once per set of columns given, in their order. Undefined values are left out, as Kysely leaves
 * them out of `.values()` and `.set()`. Every value is a stand-in: a value that is itself an
 * expression (`sql\`...\``) must not come through here. Past COLUMN_SETS sets the query is built
 * each time, as without it.
 */
function byColumns<R extends object>(compile: (columns: readonly string[]) => (db: Db, values: Record<string, unknown>) => Promise<QueryResult<unknown>>) {
  const compiled = new Map<string, (db: Db, values: Record<string, unknown>) => Promise<QueryResult<unknown>>>();
  return (db: Db, row: R, extra: Record<string, unknown> = {}): Promise<QueryResult<unknown>> => {
    const values: Record<string, unknown> = { ...extra };
    const columns: string[] = [];
    for (const [column, value] of Object.entries(row)) {
      if (value === undefined) continue;
      columns.push(column);
      values[`c_${column}`] = value;
    }
    const key = columns.join(',');
    let run = compiled.get(key);
    if (!run) {
      run = compile(columns);
      if (compiled.size < COLUMN_SETS) compiled.set(key, run);
    }
    return run(db, values);
  };
}

/** An insert of one row into `table`, compiled once per set of columns (see byColumns). */
export function precompiledInsert<T extends keyof Database & string>(table: T): (db: Db, row: Insertable<Database[T]>) => Promise<void> {
  const insert = byColumns<Insertable<Database[T]>>((columns) =>
    precompiled((db, p: Params<Record<string, unknown>>) =>
      (db as unknown as Kysely<Record<string, Record<string, unknown>>>).insertInto(table as string).values(Object.fromEntries(columns.map((c) => [c, p[`c_${c}`]]))),
    ),
  );
  return async (db, row) => {
    await insert(db, row);
  };
}

/**
 * An update of the row of `table` whose `id` is given, compiled once per set of columns it sets
 * (see byColumns); false when the patch sets nothing (no statement runs), else whether a row changed.
 */
export function precompiledUpdateById<T extends keyof Database & string>(table: T): (db: Db, id: string, patch: Updateable<Database[T]>) => Promise<boolean> {
  const update = byColumns<Updateable<Database[T]>>((columns) =>
    precompiled((db, p: Params<Record<string, unknown>>) =>
      (db as unknown as Kysely<Record<string, { id: string }>>)
        .updateTable(table as string)
        .set(Object.fromEntries(columns.map((c) => [c, p[`c_${c}`]])) as Record<string, never>)
        .where('id', '=', p.id as string),
    ),
  );
  return async (db, id, patch) => {
    const changes = changesOf(patch);
    if (!changes) return false;
    return Number((await update(db, changes as Updateable<Database[T]>, { id })).numAffectedRows) > 0;
  };
}
