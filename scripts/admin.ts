// npm run admin -- grant <e-mail> | revoke <e-mail> | list
// Makes an account an admin (or an ordinary user again), on the database the server uses
// (DATA_DIR's embedded one, or DATABASE_URL's). The embedded database has one process: stop the
// server first (this refuses while it runs); on a PostgreSQL server it works at any time, and the
// role counts from the user's next request.
import { listAdmins, NoSuchUserError, setRole } from '../server/accounts/roles';
import { loadConfig } from '../server/config';
import { createDb, migrate } from '../server/db';
import { DataDirInUseError } from '../server/db/data-dir-lock';

const USAGE = 'Usage: npm run admin -- grant <e-mail> | revoke <e-mail> | list';

async function main(): Promise<number> {
  const [command, email] = process.argv.slice(2);
  if (!['grant', 'revoke', 'list'].includes(command ?? '') || (command !== 'list' && !email)) {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfig();
  const db = await createDb(config);
  try {
    await migrate(db);
    if (command === 'list') {
      const admins = await listAdmins(db);
      process.stdout.write(admins.length === 0 ? 'No admins yet.\n' : `${admins.join('\n')}\n`);
    } else {
      const role = command === 'grant' ? 'admin' : 'user';
      const changed = await setRole(db, email, role);
      const address = email.trim().toLowerCase();
      process.stdout.write(
        role === 'admin'
          ? `${address} ${changed ? 'is an admin now' : 'was an admin already'}.\n`
          : `${address} ${changed ? 'is no longer an admin' : 'was not an admin'}.\n`,
      );
    }
    return 0;
  } finally {
    await db.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known = error instanceof NoSuchUserError || error instanceof DataDirInUseError;
    process.stderr.write(`${known ? (error as Error).message : ((error as Error).stack ?? String(error))}\n`);
    process.exit(1);
  },
);
