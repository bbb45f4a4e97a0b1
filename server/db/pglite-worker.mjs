// The embedded database's own thread: PGlite runs here, so its work (it is PostgreSQL compiled to
// WebAssembly, and runs synchronously) never blocks the server's event loop. Driven by
// server/db/pglite-thread.ts over messages: query, exec, begin/commit/rollback of a transaction
// held open across messages, close. Plain JavaScript: worker threads do not get tsx's loader.
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
// pg_trgm: the contacts search's index (trigrams of names and usernames); a real server has it in contrib.
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** Drizzle's parsers (kept as text): the only ones that cross, as a flag. */
const RAW_DATES = {
  [types.TIMESTAMP]: (value) => value,
  [types.TIMESTAMPTZ]: (value) => value,
  [types.INTERVAL]: (value) => value,
  [types.DATE]: (value) => value,
};

/** What a database error carries that callers read (the SQLSTATE code above all). */
const ERROR_FIELDS = ['code', 'detail', 'hint', 'constraint', 'table', 'column', 'schema', 'severity', 'position', 'where', 'routine'];

const { dataDir, sharedBuffers, loadDataDir } = workerData;
const db = await PGlite.create(dataDir ?? undefined, {
  extensions: { pg_trgm },
  // A copy of an already migrated database (the tests' template): no initdb, no migrations.
  ...(loadDataDir ? { loadDataDir: new Blob([await readFile(loadDataDir)]) } : {}),
  ...(sharedBuffers ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`] } : {}),
});

/** Open transactions by id: their PGlite handle, and how to end them. */
const transactions = new Map();

const optionsOf = (wire) => (wire ? { rowMode: wire.rowMode, ...(wire.rawDates ? { parsers: RAW_DATES } : {}) } : undefined);
const plain = (result) => ({ rows: result.rows, fields: result.fields, affectedRows: result.affectedRows });

function target(txId) {
  if (!txId) return db;
  const open = transactions.get(txId);
  if (!open) throw new Error(`No open transaction ${txId}`);
  return open.tx;
}

async function run(message) {
  switch (message.type) {
    case 'query':
      return plain(await target(message.txId).query(message.sql, message.params, optionsOf(message.options)));
    case 'exec':
      return (await target(message.txId).exec(message.sql, optionsOf(message.options))).map(plain);
    case 'begin': {
      const open = {};
      const started = new Promise((ready) => {
        open.finished = db.transaction(
          (tx) =>
            new Promise((resolve, reject) => {
              Object.assign(open, { tx, resolve, reject });
              ready();
            }),
        );
      });
      open.finished.catch(() => undefined); // reported by commit/rollback
      transactions.set(message.txId, open);
      try {
        await Promise.race([started, open.finished]);
      } catch (error) {
        transactions.delete(message.txId);
        throw error;
      }
      return null;
    }
    case 'commit': {
      const open = transactions.get(message.txId);
      transactions.delete(message.txId);
      open.resolve();
      await open.finished;
      return null;
    }
    case 'rollback': {
      const open = transactions.get(message.txId);
      transactions.delete(message.txId);
      if (open) {
        open.reject(new Error('rolled back'));
        await open.finished.catch(() => undefined);
      }
      return null;
    }
    case 'close':
      await db.close();
      return null;
    default:
      throw new Error(`Unknown message ${message.type}`);
  }
}

parentPort.on('message', (message) => {
  run(message).then(
    (result) => parentPort.postMessage({ id: message.id, result }),
    (error) => {
      const wire = { message: error instanceof Error ? error.message : String(error) };
      for (const field of ERROR_FIELDS) if (error?.[field] !== undefined) wire[field] = error[field];
      parentPort.postMessage({ id: message.id, error: wire });
    },
  );
});
parentPort.postMessage({ ready: true });
