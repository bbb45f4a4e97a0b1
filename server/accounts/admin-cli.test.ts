// `npm run admin`: the documented way to make the first admin of a fresh install, and later ones.
// The command itself runs on the embedded database of DATA_DIR, and refuses while another process
// has it open (a second process would corrupt the embedded database's files). The role rules are
// checked in-process, on PGlite and on PostgreSQL.
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, migrate } from '../db';
import { users } from '../db/schema';
import { createTestDb, tempDir } from '../test/helpers';
import { listAdmins, NoSuchUserError, setRole } from './roles';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = tempDir('funnels-admin-');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('npm', ['run', '-s', 'admin', '--', ...args], { cwd: root, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run admin', () => {
  it('grants the role by e-mail on a stopped server, and refuses while the server holds the database', async () => {
    const usage = await admin('grant');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: npm run admin -- grant <e-mail> | revoke <e-mail> | list');

    const setup = await createDb({ databaseUrl: null, dataDir });
    await migrate(setup);
    await setup.orm.insert(users).values({ email: 'boss@example.com', firstName: 'Boss', isActive: true });
    await setup.close();

    expect(await admin('grant', 'Boss@Example.com')).toMatchObject({ code: 0, stdout: 'boss@example.com is an admin now.\n' });

    const server = await createDb({ databaseUrl: null, dataDir }); // as a running server holds it
    try {
      const [row] = await server.orm.select({ role: users.role }).from(users).where(eq(users.email, 'boss@example.com'));
      expect(row.role).toBe('admin');
      const busy = await admin('revoke', 'boss@example.com');
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain(`is in use by process ${process.pid}`);
      expect(busy.stderr).toContain('stop that process first');
    } finally {
      await server.close();
    }
  }, 180_000);
});

describe('roles', () => {
  it('grant, revoke and list by e-mail (any case); an unknown e-mail says to sign up first', async () => {
    const testDb = await createTestDb();
    try {
      const { db } = testDb;
      await db.orm.insert(users).values([{ email: 'one@example.com' }, { email: 'two@example.com' }]);
      expect(await setRole(db, 'ONE@example.com', 'admin')).toBe(true);
      expect(await setRole(db, 'one@example.com', 'admin')).toBe(false);
      expect(await setRole(db, 'two@example.com', 'admin')).toBe(true);
      expect(await listAdmins(db)).toEqual(['one@example.com', 'two@example.com']);
      expect(await setRole(db, 'one@example.com', 'user')).toBe(true);
      expect(await listAdmins(db)).toEqual(['two@example.com']);
      await expect(setRole(db, 'nobody@example.com', 'admin')).rejects.toThrow(NoSuchUserError);
      await expect(setRole(db, 'nobody@example.com', 'admin')).rejects.toThrow('No account has the e-mail nobody@example.com: sign up first');
    } finally {
      await testDb.drop();
    }
  });
});
