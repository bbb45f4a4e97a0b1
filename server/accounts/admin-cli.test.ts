// `npm run admin`: the documented way to make the first admin of a fresh install, and later ones.
// It runs on the embedded database of DATA_DIR, and refuses while another process has it open
// (a second process would corrupt the embedded database's files).
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, migrate } from '../db';
import { users } from '../db/schema';
import { tempDir } from '../test/helpers';

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

async function roleOf(email: string): Promise<string | undefined> {
  const db = await createDb({ databaseUrl: null, dataDir });
  try {
    const [row] = await db.orm.select({ role: users.role }).from(users).where(eq(users.email, email));
    return row?.role;
  } finally {
    await db.close();
  }
}

describe('npm run admin', () => {
  it('grants and revokes the admin role by e-mail, and lists the admins', async () => {
    const db = await createDb({ databaseUrl: null, dataDir });
    await migrate(db);
    await db.orm.insert(users).values({ email: 'boss@example.com', firstName: 'Boss', isActive: true });
    await db.close();

    const granted = await admin('grant', 'Boss@Example.com');
    expect(granted).toMatchObject({ code: 0, stdout: 'boss@example.com is an admin now.\n' });
    expect(await roleOf('boss@example.com')).toBe('admin');
    expect((await admin('list')).stdout).toBe('boss@example.com\n');
    expect((await admin('grant', 'boss@example.com')).stdout).toBe('boss@example.com was an admin already.\n');

    expect((await admin('revoke', 'boss@example.com')).stdout).toBe('boss@example.com is no longer an admin.\n');
    expect(await roleOf('boss@example.com')).toBe('user');
    expect((await admin('list')).stdout).toBe('No admins yet.\n');
  }, 120_000);

  it('says what is wrong: an unknown e-mail, a missing argument, a database in use', async () => {
    const unknown = await admin('grant', 'nobody@example.com');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No account has the e-mail nobody@example.com');

    const usage = await admin('grant');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: npm run admin -- grant <e-mail> | revoke <e-mail> | list');

    const open = await createDb({ databaseUrl: null, dataDir }); // as a running server holds it
    try {
      const busy = await admin('grant', 'boss@example.com');
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain(`is in use by process ${process.pid}`);
    } finally {
      await open.close();
    }
    expect((await admin('grant', 'boss@example.com')).code).toBe(0); // released on close
  }, 120_000);
});
