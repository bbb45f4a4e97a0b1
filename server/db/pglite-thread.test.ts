// The embedded database in its own thread: what the server relies on from it — transactions that
// commit or roll back as a whole, other statements waiting while one is open, PostgreSQL's error
// codes, binary data intact, and a server thread that is never blocked by the database's work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteThread } from './pglite-thread';

let db: PgliteThread;

beforeAll(async () => {
  db = await PgliteThread.start(undefined, '16MB');
  await db.exec('create table items (id int primary key, name text not null, data bytea)');
});
afterAll(async () => {
  await db?.close();
});

const names = async () => (await db.query<{ name: string }>('select name from items order by id')).rows.map((r) => r.name);

describe('PgliteThread', () => {
  it('commits a transaction as a whole, and rolls back all of it when the callback throws', async () => {
    await db.transaction(async (tx) => {
      await tx.query('insert into items (id, name) values ($1, $2)', [1, 'kept']);
      await tx.query('insert into items (id, name) values ($1, $2)', [2, 'kept too']);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into items (id, name) values ($1, $2)', [3, 'lost']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await names()).toEqual(['kept', 'kept too']);
  });

  it('a statement outside an open transaction waits for it to end, and sees its result', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let updated!: () => void;
    const didUpdate = new Promise<void>((resolve) => (updated = resolve));
    const order: string[] = [];
    const open = db
      .transaction(async (tx) => {
        await tx.query("update items set name = 'renamed' where id = 1");
        updated();
        await gate;
      })
      .then(() => order.push('commit'));
    // The transaction has done its update and is still open when the outside read is sent.
    await didUpdate;
    const outside = names().then((rows) => {
      order.push('outside read');
      return rows;
    });
    release();
    await open;
    expect(await outside).toEqual(['renamed', 'kept too']);
    // The read answered only once the transaction had ended.
    expect(order).toEqual(['commit', 'outside read']);
  });

  it("reports PostgreSQL's error code (a unique violation is 23505) and goes on working", async () => {
    await expect(db.query('insert into items (id, name) values (1, $1)', ['again'])).rejects.toMatchObject({ code: '23505' });
    expect(await names()).toHaveLength(2);
  });

  it('keeps binary data byte for byte', async () => {
    const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256);
    await db.query('insert into items (id, name, data) values (10, $1, $2)', ['blob', bytes]);
    const [row] = (await db.query<{ data: Uint8Array }>('select data from items where id = 10')).rows;
    expect(Buffer.from(row.data).equals(Buffer.from(bytes))).toBe(true);
  });

  it('a long statement does not stop the server thread', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 5);
    await db.query('select count(*) from generate_series(1, 3000000)');
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0); // in the server thread it would be 0: no timer runs while WebAssembly does
  });
});
