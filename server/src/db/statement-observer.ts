import type { CompiledQuery, DatabaseConnection, Dialect, Driver, Kysely, QueryResult, TransactionSettings } from 'kysely';

/** Told of every statement a Db runs (not transaction control: begin, commit, rollback, savepoints). */
export type StatementListener = (query: CompiledQuery) => void;

/** The listeners of each Db that openDb built (and of the Kysely instances derived from it). */
const registries = new WeakMap<object, Set<StatementListener>>();

/**
 * Calls `listener` for each statement `db` runs until the returned function is called. `db` must
 * come from openDb (e.g. a server's `db`): the hook sits in its driver, so statements that server
 * code runs on its own instance, its transactions and its connections are seen too.
 */
export function observeStatements(db: Kysely<any>, listener: StatementListener): () => void {
  const listeners = registries.get(db);
  if (!listeners) throw new Error('observeStatements: this Db was not opened by openDb, so its statements cannot be observed.');
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Wraps `dialect` so that `db`'s statements reach the listeners observeStatements adds; call once per Db. */
export function observedDialect(dialect: Dialect): { dialect: Dialect; register(db: Kysely<any>): void } {
  const listeners = new Set<StatementListener>();
  return {
    dialect: {
      createAdapter: () => dialect.createAdapter(),
      createQueryCompiler: () => dialect.createQueryCompiler(),
      createIntrospector: (db) => dialect.createIntrospector(db),
      createDriver: () => new ObservedDriver(dialect.createDriver(), listeners),
    },
    register: (db) => void registries.set(db, listeners),
  };
}

/** A connection that tells the listeners of each statement before the real connection runs it. */
class ObservedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly listeners: Set<StatementListener>,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.listeners.size > 0) for (const listener of this.listeners) listener(query);
    return this.inner.executeQuery(query);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    if (this.listeners.size > 0) for (const listener of this.listeners) listener(query);
    return this.inner.streamQuery(query, chunkSize);
  }
}

/** Hands out observed connections; transaction control goes to the real connection, unobserved. */
class ObservedDriver implements Driver {
  // The real drivers keep their connections (SQLite one, PostgreSQL one per pooled client): one wrapper each.
  private readonly wrappers = new WeakMap<DatabaseConnection, ObservedConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly listeners: Set<StatementListener>,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let wrapper = this.wrappers.get(connection);
    if (!wrapper) {
      wrapper = new ObservedConnection(connection, this.listeners);
      this.wrappers.set(connection, wrapper);
    }
    return wrapper;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(unwrap(connection), settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(unwrap(connection));
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(unwrap(connection));
  }

  savepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['savepoint']>>[2]): Promise<void> {
    if (!this.inner.savepoint) throw new Error('This database driver does not support savepoints.');
    return this.inner.savepoint(unwrap(connection), name, compile);
  }

  rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['rollbackToSavepoint']>>[2]): Promise<void> {
    if (!this.inner.rollbackToSavepoint) throw new Error('This database driver does not support savepoints.');
    return this.inner.rollbackToSavepoint(unwrap(connection), name, compile);
  }

  releaseSavepoint(connection: DatabaseConnection, name: string, compile: Parameters<NonNullable<Driver['releaseSavepoint']>>[2]): Promise<void> {
    if (!this.inner.releaseSavepoint) throw new Error('This database driver does not support savepoints.');
    return this.inner.releaseSavepoint(unwrap(connection), name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(unwrap(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

function unwrap(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof ObservedConnection ? connection.inner : connection;
}

const WRITE_NODES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);

/** True for a statement that writes: by its query node, or for raw SQL by its leading verb (after any WITH). */
export function isWrite(query: CompiledQuery): boolean {
  if (WRITE_NODES.has(query.query.kind)) return true;
  const text = query.sql.replace(/^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)+/, '');
  if (/^(insert|update|delete|replace|merge|upsert)\b/i.test(text)) return true;
  // A raw CTE: the statement writes when a write verb follows the closing parenthesis of a WITH entry,
  // or opens a WITH entry (PostgreSQL's data-modifying `name as (update … returning …)`).
  return /^with\b/i.test(text) && /(\)\s*|\bas\s*(not\s+)?(materialized\s*)?\(\s*)(insert|update|delete|merge)\b/i.test(text);
}
