import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/** What a query answers: the part of PGlite's Results that Roost and drizzle read. */
export interface RemoteResults<T> {
  rows: T[];
  affectedRows?: number;
  fields: Array<{ name: string; dataTypeID: number }>;
}

interface QueryOptions {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, unknown>;
  /** The rows of a `copy … from '/dev/blob'` statement. */
  copyData?: Uint8Array;
  /** The transaction's last statement: it commits once this succeeds (no message of its own). */
  last?: boolean;
}

/** The query side of a client or of one of its transactions, as drizzle's PGlite driver calls it. */
export interface RemoteQueryable {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<RemoteResults<T>>;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * A PGlite database living in a worker thread (pgliteWorker.mjs), with the `query` and
 * `transaction` surface drizzle's PGlite driver uses, so `drizzle({ client })` works on it
 * unchanged. Transactions are interactive: each query of one carries its id, and PGlite's own
 * lock keeps every other query waiting until it ends, as it does in one thread.
 */
export class PgliteRemote implements RemoteQueryable {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private nextTx = 1;
  private failure: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: { id: number; ok?: true; result?: unknown; error?: object }) => {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.ok) waiting.resolve(message.result);
      else waiting.reject(toError(message.error));
    });
    // A dead database thread fails every waiting and later query (nothing is acknowledged).
    const stop = (error: Error) => {
      const failure = (this.failure ??= error);
      for (const waiting of this.pending.values()) waiting.reject(failure);
      this.pending.clear();
    };
    worker.on('error', stop);
    worker.on('exit', (code) => stop(new Error(`the database thread stopped (exit code ${code})`)));
  }

  /**
   * Starts the thread, opens the database at `location` (from `template`, a data directory as
   * an uncompressed tar, when given) and applies the migrations.
   */
  static async open(
    location: string,
    migrationsFolder: string,
    template?: Uint8Array,
  ): Promise<PgliteRemote> {
    const modules = await compiledModules();
    const worker = new Worker(new URL('./pgliteWorker.mjs', import.meta.url), {
      workerData: { location, migrationsFolder, template, ...modules },
      // Plain JavaScript: without the parent's loaders (tsx's in a worker thread ended the
      // process silently).
      execArgv: [],
    });
    const remote = new PgliteRemote(worker);
    try {
      await new Promise((resolve, reject) => remote.pending.set(0, { resolve, reject }));
    } catch (error) {
      await worker.terminate();
      throw error;
    }
    return remote;
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<RemoteResults<T>> {
    return this.send({
      op: 'query',
      sql,
      params,
      rowMode: options?.rowMode,
      drizzleParsers: options?.parsers !== undefined,
      copyData: options?.copyData,
    }) as Promise<RemoteResults<T>>;
  }

  /**
   * Runs `fn` in one transaction: commits when it resolves, rolls back when it throws. It
   * begins with its first query and, when a query says it is the `last`, commits with it; its
   * queries may be sent together (`Promise.all`) and run in the order sent
   * (pgliteWorker.mjs: each message the database's thread waits for costs a turn of this
   * thread's event loop while the database's lock is held).
   */
  async transaction<T>(fn: (tx: RemoteQueryable) => Promise<T>): Promise<T> {
    const tx = this.nextTx;
    this.nextTx += 1;
    const my = { begun: false, last: false, committed: false };
    const queryable: RemoteQueryable = {
      query: <R>(sql: string, params?: unknown[], options?: QueryOptions) => {
        if (my.last) return Promise.reject(new Error('the transaction has already ended'));
        const begin = !my.begun;
        my.begun = true;
        my.last = options?.last === true;
        const sent = this.send({
          op: 'query',
          sql,
          params,
          tx,
          begin,
          commit: my.last,
          rowMode: options?.rowMode,
          drizzleParsers: options?.parsers !== undefined,
          copyData: options?.copyData,
        }) as Promise<RemoteResults<R>>;
        if (my.last)
          void sent.then(
            () => (my.committed = true),
            () => undefined,
          );
        return sent;
      },
    };
    let result: T;
    try {
      result = await fn(queryable);
    } catch (error) {
      // Also after a failed `last` query, which did not commit.
      if (my.begun && !my.committed)
        await this.send({ op: 'end', tx, commit: false }).catch(() => undefined);
      throw error;
    }
    // A failed `last` query the function caught did not end the transaction: end it here.
    if (my.begun && !my.committed) await this.send({ op: 'end', tx, commit: true });
    return result;
  }

  /** A consistent copy of the whole database: PGlite's data directory as a gzipped tar. */
  async dump(): Promise<Uint8Array> {
    return new Uint8Array((await this.send({ op: 'dump' })) as ArrayBuffer);
  }

  async close(): Promise<void> {
    if (!this.failure) await this.send({ op: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }

  private send(message: Record<string, unknown>): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...message });
    });
  }
}

let compiled: Promise<{
  pgliteWasmModule: WebAssembly.Module;
  initdbWasmModule: WebAssembly.Module;
}> | null = null;

/**
 * PGlite's two WebAssembly modules, compiled once per process and handed to every database
 * thread: compiling them is most of a database's start (tests open dozens).
 */
function compiledModules() {
  compiled ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const compile = async (file: string) =>
      WebAssembly.compile(await readFile(path.join(dist, file)));
    const [pgliteWasmModule, initdbWasmModule] = await Promise.all([
      compile('pglite.wasm'),
      compile('initdb.wasm'),
    ]);
    return { pgliteWasmModule, initdbWasmModule };
  })();
  return compiled;
}

/** A PostgreSQL error from the thread, with its fields (code, constraint, detail…) back on it. */
function toError(data: object | undefined): Error {
  const fields = (data ?? {}) as { message?: string; name?: string };
  return Object.assign(new Error(fields.message ?? 'database error'), fields);
}
