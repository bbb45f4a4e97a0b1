// Creates an embedded database's files in a data directory, in a process of its own: PGlite's
// initdb leaves about 400 MB behind in the process that ran it (measured: 800 MB RSS after a
// fresh create against under 300 MB when opening existing files), and that memory is never given
// back to the system. server/db/index.ts runs this once, when DATA_DIR/pgdata is empty.
import { PGlite } from '@electric-sql/pglite';

const dataDir = process.argv[2];
if (!dataDir) {
  console.error('usage: node pglite-initdb.mjs <data directory>');
  process.exit(2);
}
const db = await PGlite.create(dataDir);
await db.close();
