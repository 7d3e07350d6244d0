// @ts-check
/**
 * PGlite in its own thread. PGlite is WebAssembly that runs on the thread that calls it: on the
 * server's main thread every batch written blocked MQTT, Socket.IO and HTTP for its whole
 * duration (about half the server's CPU under load, bench/ingest.ts). Here it gets a core of its
 * own and the main thread only posts messages (server/db/pgliteRemote.ts).
 *
 * Plain JavaScript on purpose: a worker thread started from Vitest or plain Node has no
 * TypeScript loader.
 *
 * Messages in: { id, op: 'query', sql, params, rowMode?, drizzleParsers?, copyData?, tx?, begin?,
 * commit? } | { id, op: 'end', tx, commit } | { id, op: 'dump' } | { id, op: 'close' }.
 * A transaction's id is the main thread's choice. A query with `begin` first starts its
 * transaction; one with `commit` ends it with a commit once it has succeeded. The messages of
 * one transaction run in the order they were sent, so the main thread may send several without
 * waiting for each answer. Why: a transaction holds PGlite's lock from its first query to its
 * end, and each answer the main thread must see before it sends the next message costs a turn
 * of its event loop meanwhile (at 10,000 readings a second the lock was held idle for half of
 * the time, waiting for such turns); begin and commit folded into the first and last query,
 * and queries sent together, cost none.
 * Messages out: { id, ok: true, result } | { id, error }. Message id 0 answers the start-up.
 * A dump's result (an ArrayBuffer) is transferred, not copied.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';

/** @param {unknown} value */
const raw = (value) => value;
/**
 * drizzle's PGlite driver passes these parsers as functions, which cannot cross threads: it
 * keeps date and time types as text and maps them itself (drizzle-orm/pglite/session.js).
 */
const DRIZZLE_PARSERS = {
  [types.TIMESTAMP]: raw,
  [types.TIMESTAMPTZ]: raw,
  [types.INTERVAL]: raw,
  [types.DATE]: raw,
  1231: raw, // numeric[]
  1115: raw, // timestamp[]
  1185: raw, // timestamptz[]
  1187: raw, // interval[]
  1182: raw, // date[]
};

/** Thrown inside PGlite's transaction callback to make it roll back. */
const ROLLBACK = Symbol('rollback');

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);
const { location, migrationsFolder, pgliteWasmModule, initdbWasmModule, template } = workerData;

/** @type {PGlite} */
let client;
/** @type {Map<number, { tx: import('@electric-sql/pglite').Transaction, end: (commit: boolean) => void, finished: Promise<void> }>} */
const transactions = new Map();
/** Per transaction, its last message's run: the next one of it starts after it. */
/** @type {Map<number, Promise<unknown>>} */
const inOrder = new Map();

/**
 * An error as it can cross threads: its message and PostgreSQL's fields (code, constraint,
 * detail…, what callers test, e.g. 23505). PGlite also hangs the query's options on it, whose
 * parser functions cannot be copied and would kill the thread.
 * @param {unknown} error
 */
function serializeError(error) {
  if (!(error instanceof Error)) return { message: String(error) };
  /** @type {Record<string, string | number | boolean>} */
  const fields = { name: error.name, message: error.message };
  for (const [key, value] of Object.entries(error)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return fields;
}

/**
 * Starts transaction `txId`; resolves once it holds PGlite's lock.
 * @param {number} txId
 * @returns {Promise<void>}
 */
function begin(txId) {
  return new Promise((resolve, reject) => {
    /** @type {(commit: boolean) => void} */
    let end = () => undefined;
    const ended = new Promise((r) => (end = r));
    const finished = client
      .transaction(async (tx) => {
        transactions.set(txId, { tx, end, finished });
        resolve();
        if (!(await ended)) throw ROLLBACK;
      })
      .then(
        () => undefined,
        (error) => {
          if (error !== ROLLBACK) throw error;
        },
      );
    finished.catch(reject);
  });
}

/**
 * Ends a transaction: commits or rolls back.
 * @param {number} txId
 * @param {boolean} commit
 */
async function end(txId, commit) {
  const transaction = transactions.get(txId);
  if (!transaction) throw new Error('no such transaction');
  transactions.delete(txId);
  transaction.end(commit);
  await transaction.finished;
}

/**
 * The whole data directory as a gzipped tar, consistent: taken while this thread holds
 * PGlite's transaction lock, so no transaction is half-written in it (every query and
 * transaction waits for that lock), after a checkpoint, so a restore replays little WAL.
 * Writes wait meanwhile; reads of the main thread's HTTP side wait too.
 */
async function dump() {
  /** @type {ArrayBuffer | undefined} */
  let archive;
  await client.transaction(async (tx) => {
    await tx.exec('CHECKPOINT');
    archive = await (await client.dumpDataDir('gzip')).arrayBuffer();
  });
  return archive;
}

/** @param {any} message */
async function run(message) {
  switch (message.op) {
    case 'query': {
      const txId = message.tx;
      if (message.begin) await begin(txId);
      const target = txId ? transactions.get(txId)?.tx : client;
      if (!target) throw new Error('the transaction has already ended');
      const options =
        message.rowMode || message.drizzleParsers || message.copyData
          ? {
              rowMode: message.rowMode,
              parsers: message.drizzleParsers ? DRIZZLE_PARSERS : undefined,
              blob: message.copyData ? new Blob([message.copyData]) : undefined,
            }
          : undefined;
      const result = await target.query(message.sql, message.params, options);
      if (message.commit && txId) await end(txId, true);
      return { rows: result.rows, affectedRows: result.affectedRows, fields: result.fields };
    }
    case 'end':
      await end(message.tx, message.commit);
      return null;
    case 'dump':
      return dump();
    case 'close':
      await client.close();
      return null;
    default:
      throw new Error(`unknown operation ${message.op}`);
  }
}

/**
 * Runs a message after the earlier ones of its transaction.
 * @param {any} message
 */
function runInOrder(message) {
  if (!message.tx) return run(message);
  const done = (inOrder.get(message.tx) ?? Promise.resolve()).then(() => run(message));
  const settled = done.then(
    () => undefined,
    () => undefined,
  );
  inOrder.set(message.tx, settled);
  // Forgotten with its last message (a transaction's end, or a message after it, which fails).
  void settled.then(() => {
    if (inOrder.get(message.tx) === settled) inOrder.delete(message.tx);
  });
  return done;
}

port.on('message', async (message) => {
  try {
    const result = await runInOrder(message);
    const transfer = result instanceof ArrayBuffer ? [result] : [];
    port.postMessage({ id: message.id, ok: true, result }, transfer);
  } catch (error) {
    // Also a result that cannot be copied: the caller gets an error, the thread lives on.
    port.postMessage({ id: message.id, error: serializeError(error) });
  }
});

/**
 * A `memory://` database's files are memory already: PostgreSQL's 128 MB of shared buffers
 * would only copy them, and its 16 MB WAL segments are zero-filled memory the database never
 * needs, both paid again at every start (they were two thirds of one: 1.05 s → 0.4 s, from a
 * template, on a 2-core machine; tests open hundreds). Queries ran as fast. A database on
 * disk keeps PostgreSQL's defaults.
 */
const IN_MEMORY = location === 'memory://';

try {
  client = await PGlite.create(location, {
    pgliteWasmModule,
    initdbWasmModule,
    // A data directory to start from instead of an empty one (tests: see PgliteRemote.open).
    loadDataDir: template ? new Blob([template]) : undefined,
    ...(IN_MEMORY && {
      postgresqlconf: ['shared_buffers = 16MB'],
      initDbStartParams: ['--wal-segsize=1'],
    }),
  });
  // On a template too: it applies whatever migration the template does not have yet.
  await migrate(drizzle({ client }), { migrationsFolder });
  port.postMessage({ id: 0, ok: true, result: null });
} catch (error) {
  port.postMessage({ id: 0, error: serializeError(error) });
}
