import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { type DataDirectoryHold, holdDataDirectory } from "./backup/control-socket.server";
import * as schema from "./schema";

/** The Drizzle client every module receives; the same API over postgres.js and PGlite. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** What a `db.transaction` callback gets: queries inside that transaction. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * Runs `read` in one read-only, repeatable-read transaction: every query in it sees the same committed
 * state, so what is built from several reads (an auction's view: its row, bids, minimums, chart) never
 * mixes the moments before and after a write that committed between them.
 */
export function inSnapshot<T>(db: Database, read: (snapshot: Transaction) => Promise<T>): Promise<T> {
  return db.transaction(read, { isolationLevel: "repeatable read", accessMode: "read only" });
}

export type DatabaseHandle = {
  db: Database;
  kind: "postgres" | "pglite";
  /** Runs `work` while holding a cluster-wide lock, so several machines starting together take turns. */
  withStartupLock<T>(work: () => Promise<T>): Promise<T>;
  migrate(): Promise<void>;
  /** Parameterised SQL in node-postgres' result shape, for libraries that expect a pg Pool. */
  query(text: string, values?: unknown[]): Promise<RawQueryResult>;
  /** Cheap round trip for health checks. */
  ping(): Promise<void>;
  /**
   * This handle's connections in use now (the LISTEN connection aside), the queries and transactions
   * waiting for one, and the pool's size (PGlite: its one connection), for the metrics.
   */
  poolUsage(): PoolUsage;
  /**
   * LISTENs on a PostgreSQL notification channel. On PostgreSQL all of a handle's listeners share one
   * dedicated connection (postgres.js `listen`), reconnected with backoff; `onListen` runs once the
   * LISTEN is in place, and again after every reconnect (notifications sent meanwhile are lost, so
   * reload state there). PGlite is in-process: its one connection, no reconnects. Answers `unlisten`.
   */
  listen(channel: string, onNotify: (payload: string) => void, onListen?: () => void): Promise<() => Promise<void>>;
  /**
   * PGlite only: a consistent copy of the data directory, as a tarball `pgliteDataDir` loads, taken
   * between two transactions (queries wait meanwhile).
   */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
};

export type PoolUsage = { inUse: number; waiting: number; max: number };

export type RawQueryResult = { rows: Record<string, unknown>[]; rowCount: number };

export type DatabaseOptions = {
  databaseUrl?: string;
  pgliteDir: string;
  /** PGlite only: starts from this data directory (a `dumpDataDir` tarball) instead of an empty one. */
  pgliteDataDir?: Blob;
};

const migrationsFolder = path.resolve(process.cwd(), "db/migrations");
const STARTUP_LOCK_KEY = 7_340_021; // arbitrary, fixed: identifies our migrate/seed advisory lock

/**
 * Who is told of each query a Drizzle client sends (its SQL): tests count the queries a page makes.
 * Kept on the client under a registered symbol, so a test reaches the built app's client from its
 * own copy of this module.
 */
const QUERY_OBSERVERS = Symbol.for("upstream-marketplace.query-observers");
type QueryObserver = (sql: string) => void;

function queryLogger() {
  const observers = new Set<QueryObserver>();
  return {
    observers,
    logger: {
      logQuery(sql: string) {
        for (const observer of observers) observer(sql);
      },
    },
  };
}

function withObservers<T extends object>(db: T, observers: Set<QueryObserver>): T {
  Object.defineProperty(db, QUERY_OBSERVERS, { value: observers });
  return db;
}

/** Calls `observer` with the SQL of every query `db` sends until the answered function is called. */
export function observeQueries(db: Database, observer: QueryObserver): () => void {
  const observers = (db as unknown as Record<symbol, Set<QueryObserver> | undefined>)[QUERY_OBSERVERS];
  if (!observers) throw new Error("this Drizzle client was not made by openDatabase");
  observers.add(observer);
  return () => observers.delete(observer);
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.pgliteDir, options.pgliteDataDir);
}

/**
 * The postgres.js client as Drizzle gets it, with every query a prepared statement (Drizzle asks
 * postgres.js for unnamed ones unless a query is named). An unnamed query with parameters costs two
 * round trips (postgres.js describes it first) and a fresh parse and plan each time; a prepared one is
 * parsed once per connection and then planned from cache: one round trip. Behind a PgBouncer in
 * transaction mode without prepared-statement support, set DATABASE_PREPARED_STATEMENTS=false.
 */
function preparingEveryQuery(sql: postgres.Sql): postgres.Sql {
  return new Proxy(sql, {
    get(target, property, receiver) {
      if (property === "unsafe") {
        return (query: string, parameters?: never[], options?: postgres.UnsafeQueryOptions) =>
          target.unsafe(query, parameters, { ...options, prepare: true });
      }
      if (property === "begin" || property === "savepoint") {
        // Queries in a transaction run on the transaction's own client: it is wrapped the same way.
        return (...args: unknown[]) => {
          const work = args.pop() as (inner: postgres.Sql) => unknown;
          const method = Reflect.get(target, property, receiver) as (...rest: unknown[]) => unknown;
          return method.call(target, ...args, (inner: postgres.Sql) => work(preparingEveryQuery(inner)));
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

/** Work holding (or waiting for) a connection: counted from its start until it settles. */
type HeldWork = { count: number };

function holdUntilSettled<T>(work: T, held: HeldWork): T {
  // A postgres.js query is a lazy promise: Promise.prototype.then waits for it without starting it.
  if (!(work instanceof Promise)) return work;
  held.count += 1;
  const release = () => {
    held.count -= 1;
  };
  Promise.prototype.then.call(work, release, release);
  return work;
}

/**
 * postgres.js keeps its pool to itself: this counts what holds one of its connections (or waits for
 * one) from the outside: each query outside a transaction, each transaction and each reserved
 * connection, until it settles. Queries inside a transaction run on its connection and are not counted.
 */
function countingHeldConnections(sql: postgres.Sql, held: HeldWork): postgres.Sql {
  return new Proxy(sql, {
    apply(target, thisArgument, args) {
      return holdUntilSettled(Reflect.apply(target, thisArgument, args), held);
    },
    get(target, property, receiver) {
      if (property === "unsafe" || property === "begin") {
        const method = Reflect.get(target, property, receiver) as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => holdUntilSettled(method.apply(target, args), held);
      }
      if (property === "reserve") {
        return async () => {
          held.count += 1;
          try {
            const reserved = await target.reserve();
            const release = reserved.release;
            let released = false;
            reserved.release = () => {
              if (!released) held.count -= 1;
              released = true;
              release();
            };
            return reserved;
          } catch (error) {
            held.count -= 1;
            throw error;
          }
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
}

/** Used and waiting out of what holds or waits for one of `max` connections. */
const usageOf = (held: HeldWork, max: number): PoolUsage => ({
  inUse: Math.min(held.count, max),
  waiting: Math.max(0, held.count - max),
  max,
});

function openPostgres(url: string): DatabaseHandle {
  const max = Number(process.env.DATABASE_POOL_SIZE ?? 10);
  const held: HeldWork = { count: 0 };
  const pool = postgres(url, {
    max,
    // Recycled before a proxy in the way (Fly's, PgBouncer) drops them; this also bounds each
    // connection's prepared statements.
    max_lifetime: 600,
    idle_timeout: 300,
    onnotice: () => {},
    connection: { application_name: "upstream-marketplace" },
  });
  // Everything but `listen` (its own dedicated connection) goes through the count.
  const client = countingHeldConnections(pool, held);
  const prepared = process.env.DATABASE_PREPARED_STATEMENTS !== "false";
  const { observers, logger } = queryLogger();
  const db = withObservers(
    drizzlePostgres({ client: prepared ? preparingEveryQuery(client) : client, schema, logger }),
    observers,
  );
  return {
    db: db as unknown as Database,
    kind: "postgres",
    async withStartupLock(work) {
      // A session-level advisory lock needs one connection for lock and unlock.
      const lock = await client.reserve();
      try {
        await lock`select pg_advisory_lock(${STARTUP_LOCK_KEY})`;
        return await work();
      } finally {
        await lock`select pg_advisory_unlock(${STARTUP_LOCK_KEY})`.catch(() => {});
        lock.release();
      }
    },
    async migrate() {
      await migratePostgres(db, { migrationsFolder });
    },
    async query(text, values = []) {
      const result = await client.unsafe(text, values as never[]);
      return { rows: [...result], rowCount: result.count ?? result.length };
    },
    async ping() {
      await client`select 1`;
    },
    poolUsage: () => usageOf(held, max),
    async listen(channel, onNotify, onListen) {
      const { unlisten } = await pool.listen(channel, onNotify, onListen);
      return unlisten;
    },
    async close() {
      await pool.end({ timeout: 5 });
    },
  };
}

/** PGlite runs one query or transaction at a time on its one connection: this counts those under way or waiting. */
function countingPgliteWork(client: PGlite, held: HeldWork): PGlite {
  return new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      // Bound to PGlite itself: its methods use private fields a proxy does not have.
      const method = value.bind(target) as (...args: unknown[]) => unknown;
      return property === "query" || property === "exec" || property === "transaction"
        ? (...args: unknown[]) => holdUntilSettled(method(...args), held)
        : method;
    },
  });
}

async function openPglite(dir: string, dataDir?: Blob): Promise<DatabaseHandle> {
  let opened: PGlite | undefined;
  // PGlite's copy is taken while it runs no query; holding its transaction lock as well keeps every
  // transaction whole in the copy (drizzle's transactions hold it from BEGIN to COMMIT).
  const dumpDataDir = async () => {
    const open = opened;
    if (!open) throw new Error("the database is still opening");
    return open._runExclusiveTransaction(() => open.dumpDataDir("none"));
  };
  // A directory on disk is this process's alone while open (a second PGlite on it would corrupt it);
  // its control socket also serves `npm run db:backup` (db/backup/control-socket.server.ts).
  let hold: DataDirectoryHold | undefined;
  if (!dir.startsWith("memory://")) {
    mkdirSync(dir, { recursive: true });
    hold = await holdDataDirectory(dir, dumpDataDir);
  }
  const client = await PGlite.create(dir, dataDir ? { loadDataDir: dataDir } : {}).catch(async (error: unknown) => {
    await hold?.release();
    throw error;
  });
  opened = client;
  const held: HeldWork = { count: 0 };
  const { observers, logger } = queryLogger();
  const db = withObservers(drizzlePglite({ client: countingPgliteWork(client, held), schema, logger }), observers);
  return {
    db: db as unknown as Database,
    kind: "pglite",
    // PGlite is single-process (one process may open a folder), so there is nobody to wait for.
    withStartupLock: (work) => work(),
    async migrate() {
      await migratePglite(db, { migrationsFolder });
    },
    async query(text, values = []) {
      const result = await holdUntilSettled(client.query<Record<string, unknown>>(text, values), held);
      return { rows: result.rows, rowCount: result.rows.length || (result.affectedRows ?? 0) };
    },
    async ping() {
      await holdUntilSettled(client.query("select 1"), held);
    },
    poolUsage: () => usageOf(held, 1),
    async listen(channel, onNotify, onListen) {
      const unlisten = await client.listen(channel, onNotify);
      onListen?.();
      return () => unlisten();
    },
    dumpDataDir,
    async close() {
      await hold?.release();
      await client.close();
    },
  };
}
