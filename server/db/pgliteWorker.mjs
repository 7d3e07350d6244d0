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
 * Messages in: { id, op: 'query', sql, params, rowMode?, drizzleParsers?, copyData?, tx? } |
 * { id, op: 'begin' } | { id, op: 'end', tx, commit } | { id, op: 'dump' } | { id, op: 'close' }.
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
let nextTx = 1;

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

/** Starts a transaction and answers its id once it holds PGlite's lock. */
function begin() {
  const txId = nextTx;
  nextTx += 1;
  return new Promise((resolve, reject) => {
    /** @type {(commit: boolean) => void} */
    let end = () => undefined;
    const ended = new Promise((r) => (end = r));
    const finished = client
      .transaction(async (tx) => {
        transactions.set(txId, { tx, end, finished });
        resolve(txId);
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
      const target = message.tx ? transactions.get(message.tx)?.tx : client;
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
      return { rows: result.rows, affectedRows: result.affectedRows, fields: result.fields };
    }
    case 'begin':
      return begin();
    case 'end': {
      const transaction = transactions.get(message.tx);
      if (!transaction) throw new Error('no such transaction');
      transactions.delete(message.tx);
      transaction.end(message.commit);
      await transaction.finished;
      return null;
    }
    case 'dump':
      return dump();
    case 'close':
      await client.close();
      return null;
    default:
      throw new Error(`unknown operation ${message.op}`);
  }
}

port.on('message', async (message) => {
  try {
    const result = await run(message);
    const transfer = result instanceof ArrayBuffer ? [result] : [];
    port.postMessage({ id: message.id, ok: true, result }, transfer);
  } catch (error) {
    // Also a result that cannot be copied: the caller gets an error, the thread lives on.
    port.postMessage({ id: message.id, error: serializeError(error) });
  }
});

try {
  client = await PGlite.create(location, {
    pgliteWasmModule,
    initdbWasmModule,
    // A data directory to start from instead of an empty one (tests: see PgliteRemote.open).
    loadDataDir: template ? new Blob([template]) : undefined,
  });
  // On a template too: it applies whatever migration the template does not have yet.
  await migrate(drizzle({ client }), { migrationsFolder });
  port.postMessage({ id: 0, ok: true, result: null });
} catch (error) {
  port.postMessage({ id: 0, error: serializeError(error) });
}
