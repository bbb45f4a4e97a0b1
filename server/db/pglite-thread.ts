// The embedded database (PGlite) in a worker thread of its own (pglite-worker.mjs), behind the
// part of PGlite's client that Drizzle and this server use: query, exec and transaction.
//
// Why: PGlite is PostgreSQL compiled to WebAssembly and runs synchronously. In the server's
// thread, every statement stopped the event loop for as long as it ran: with hundreds of bots on
// the embedded database (`npm run bench:bots`) the loop was late by 70–160 ms, and every API
// request and bot update waited that long. In its own thread it also gets a core of its own.
//
// Transactions: PGlite serializes everything behind one lock, and a transaction holds it. Here a
// transaction is opened by one message and stays open in the worker while the callback's
// statements arrive tagged with its id; statements outside it wait, as they would in PGlite.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const WORKER_PATH = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pglite-worker.mjs');

export interface ThreadQueryOptions {
  rowMode?: 'array' | 'object';
  /** Drizzle's parsers. Only its "keep dates as text" set is supported (sent as a flag). */
  parsers?: Record<number, unknown>;
}

export interface ThreadResults<Row = Record<string, unknown>> {
  rows: Row[];
  fields: Array<{ name: string; dataTypeID: number }>;
  affectedRows?: number;
}

export interface ThreadTransaction {
  query<Row>(sql: string, params?: unknown[], options?: ThreadQueryOptions): Promise<ThreadResults<Row>>;
  exec(sql: string, options?: ThreadQueryOptions): Promise<ThreadResults[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/** A database error from the worker, with the fields PostgreSQL gave it (code: the SQLSTATE). */
export class ThreadDatabaseError extends Error {
  code?: string;
  detail?: string;
  constraint?: string;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export class PgliteThread {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private nextTx = 1;
  private failure: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (message: { id?: number; result?: unknown; error?: Record<string, unknown> & { message: string } }) => {
      if (message.id === undefined) return;
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.error) waiting.reject(Object.assign(new ThreadDatabaseError(message.error.message), message.error));
      else waiting.resolve(message.result);
    });
    const fail = (error: Error) => {
      this.failure = error;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The embedded database thread stopped (exit code ${code})`)));
  }

  /**
   * Starts the thread and waits until the database is open. `dataDir` undefined = in memory;
   * `sharedBuffers` sets PostgreSQL's page cache (e.g. '32MB'; PGlite's default is 128MB);
   * `loadDataDir` is a tarball of a data dir (PGlite's dumpDataDir) to start from instead of initdb.
   */
  static async start(dataDir: string | undefined, sharedBuffers?: string, loadDataDir?: string): Promise<PgliteThread> {
    const worker = new Worker(WORKER_PATH, { workerData: { dataDir, sharedBuffers, loadDataDir } });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: { ready?: boolean }) => {
        if (!message.ready) return;
        cleanup();
        resolve();
      };
      const onError = (error: Error) => {
        cleanup();
        reject(error);
      };
      const onExit = (code: number) => {
        cleanup();
        reject(new Error(`The embedded database thread stopped while opening (exit code ${code})`));
      };
      const cleanup = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
    return new PgliteThread(worker);
  }

  private send<T>(message: Record<string, unknown>): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ ...message, id });
    });
  }

  query<Row>(sql: string, params?: unknown[], options?: ThreadQueryOptions, txId?: number): Promise<ThreadResults<Row>> {
    return this.send({ type: 'query', sql, params: params ?? [], options: wire(options), txId });
  }

  exec(sql: string, options?: ThreadQueryOptions, txId?: number): Promise<ThreadResults[]> {
    return this.send({ type: 'exec', sql, options: wire(options), txId });
  }

  /** Runs `callback` in a transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(callback: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const txId = this.nextTx++;
    await this.send({ type: 'begin', txId });
    let closed = false;
    const tx: ThreadTransaction = {
      query: (sql, params, options) => this.query(sql, params, options, txId),
      exec: (sql, options) => this.exec(sql, options, txId),
      rollback: async () => {
        closed = true;
        await this.send({ type: 'rollback', txId });
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      if (!closed) await this.send({ type: 'rollback', txId }).catch(() => undefined);
      throw error;
    }
    if (!closed) await this.send({ type: 'commit', txId });
    return result;
  }

  async close(): Promise<void> {
    if (!this.failure) await this.send({ type: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }
}

function wire(options: ThreadQueryOptions | undefined): { rowMode?: string; rawDates: boolean } | undefined {
  return options ? { rowMode: options.rowMode, rawDates: options.parsers !== undefined } : undefined;
}
