// The private PostgreSQL of one test file: it stops (clients see refused connections) and
// starts again on the same port with the same data.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_CLUSTER_SKIP_REASON, startPgCluster, type PgCluster } from './pg-cluster';

async function query(url: string, text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

describe.skipIf(PG_CLUSTER_SKIP_REASON !== null)(`a private PostgreSQL for one test file (${PG_CLUSTER_SKIP_REASON ?? 'runs'})`, () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPgCluster();
  }, 60_000);
  afterAll(async () => {
    await cluster?.destroy();
  });

  it('stops (connections refused) and starts again on the same port with the same data', async () => {
    await query(cluster.url, 'create table kept (value int); insert into kept values (42)');
    await cluster.stop();
    await expect(query(cluster.url, 'select 1')).rejects.toThrow(/ECONNREFUSED/);
    await cluster.start();
    const { rows } = await query(cluster.url, 'select value from kept');
    expect(rows).toEqual([{ value: 42 }]);
  }, 60_000);
});
