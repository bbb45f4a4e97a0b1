// npm run bench:contacts — the contacts list and its CSV export with 100,000 contacts over 50 bots
// of one user: p99 of a page with each filter and with search, the plan PostgreSQL picks for each
// (EXPLAIN), and the export of all of them (time, and memory while it streams). Embedded PGlite, or
// the PostgreSQL of DATABASE_URL in a throw-away database. BENCH_CONTACTS and BENCH_RUNS change it.
import type { ContactsQuery } from '../../contract/contacts';
import type { Db } from '../../server/db';
import { benchDb, benchServices } from './db';
import { spread } from './stats';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
const BOTS = 50;
const RUNS = Number(process.env.BENCH_RUNS ?? 50);

const FIRST = ['Анна', 'Иван', 'Maria', 'John', 'Ольга', 'Peter', 'Дмитрий', 'Sara', 'Елена', 'Tom'];
const LAST = ['Иванова', 'Smith', 'Петров', 'Lopez', 'Сидорова', 'Brown', 'Кузнецов', 'Stone'];

async function seed(db: Db): Promise<{ ownerId: number; funnelId: number; stageId: number; tagId: number; folderId: number; staticListId: number; segmentId: number }> {
  const [{ id: ownerId }] = await db.query<{ id: number }>(`insert into users (email, is_active) values ('bench@example.com', true) returning id`);
  const funnels = await db.query<{ id: number }>(
    `insert into funnels (owner_id, name, bot_token_encrypted, bot_token_hash, bot_token_hint, bot_id, bot_username, state)
     select $1, 'Bot ' || g, 'x', md5(g::text), '1:xx…x', g, 'bench_' || g || '_bot', 'running' from generate_series(1, ${BOTS}) g returning id`,
    [ownerId],
  );
  const funnelIds = funnels.map((f) => f.id);
  const stages = await db.query<{ id: number; funnel_id: number }>(
    `insert into stages (funnel_id, title, position) select f, 'Stage ' || n, n from unnest($1::int[]) f, generate_series(0, 4) n returning id, funnel_id`,
    [funnelIds],
  );
  const tags = await db.query<{ id: number; funnel_id: number }>(`insert into tags (funnel_id, title) select f, 'tag ' || n from unnest($1::int[]) f, generate_series(1, 3) n returning id, funnel_id`, [funnelIds]);
  const stagesOf = new Map<number, number[]>();
  for (const s of stages) stagesOf.set(s.funnel_id, [...(stagesOf.get(s.funnel_id) ?? []), s.id]);
  const start = Date.now() - 365 * 86_400_000;
  for (let offset = 0; offset < CONTACTS; offset += 5000) {
    const n = Math.min(5000, CONTACTS - offset);
    const rows = Array.from({ length: n }, (_, k) => {
      const i = offset + k;
      const funnelId = funnelIds[i % BOTS];
      return {
        funnelId,
        telegramId: 100_000_000 + i,
        first: FIRST[i % FIRST.length],
        last: `${LAST[(i * 7) % LAST.length]} ${i}`,
        username: i % 3 === 0 ? null : `user_${i}`,
        stageId: stagesOf.get(funnelId)![i % 5],
        blocked: i % 47 === 0,
        joined: new Date(start + Math.floor((i / CONTACTS) * 365 * 86_400_000)).toISOString(),
      };
    });
    await db.query(
      `insert into people (funnel_id, telegram_id, first_name, last_name, username, stage_id, blocked, joined_at, last_seen_at)
       select * , j from unnest($1::int[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::int[], $7::boolean[], $8::timestamptz[]) as t(f, tg, fn, ln, un, st, bl, j)`,
      [rows.map((r) => r.funnelId), rows.map((r) => r.telegramId), rows.map((r) => r.first), rows.map((r) => r.last), rows.map((r) => r.username), rows.map((r) => r.stageId), rows.map((r) => r.blocked), rows.map((r) => r.joined)],
    );
  }
  // A tag on every tenth person of each funnel.
  await db.query(`insert into person_tags (person_id, tag_id) select p.id, t.id from people p join tags t on t.funnel_id = p.funnel_id and t.title = 'tag 1' where (p.telegram_id / ${BOTS}) % 10 = 0`);
  // A CRM folder with a fifth of the bots; a static list of every tenth contact; a segment of the folder.
  const [{ id: folderId }] = await db.query<{ id: number }>(`insert into crm_folders (owner_id, name) values ($1, 'Folder') returning id`, [ownerId]);
  await db.query('update funnels set folder_id = $1 where id = any($2::int[])', [folderId, funnelIds.slice(0, BOTS / 5)]);
  const [{ id: staticListId }] = await db.query<{ id: number }>(`insert into contact_lists (owner_id, name, kind) values ($1, 'Picked', 'static') returning id`, [ownerId]);
  await db.query('insert into contact_list_members (list_id, person_id) select $1, id from people where id % 10 = 0', [staticListId]);
  const [{ id: segmentId }] = await db.query<{ id: number }>(`insert into contact_lists (owner_id, name, kind, filter) values ($1, 'Segment', 'segment', $2) returning id`, [
    ownerId,
    JSON.stringify({ folder: folderId, blocked: false }),
  ]);
  await db.query('analyze');
  const stage = stages[0];
  const tag = tags.find((t) => t.funnel_id === stage.funnel_id)!;
  return { ownerId, funnelId: stage.funnel_id, stageId: stage.id, tagId: tag.id, folderId, staticListId, segmentId };
}

async function main() {
  const { db, label, cleanup } = await benchDb('contacts');
  try {
    const seedStart = performance.now();
    const w = await seed(db);
    console.log(`bench:contacts — ${label}, ${CONTACTS.toLocaleString('en')} contacts over ${BOTS} bots of one user (seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s), ${RUNS} runs each`);
    const { contacts } = benchServices(db);
    const cases: Array<[string, ContactsQuery]> = [
      ['no filter (first page)', {}],
      ['page 100 (offset 5,000)', { offset: 5000 }],
      ['funnel', { funnel: w.funnelId }],
      ['stage', { stage: String(w.stageId) }],
      ['stage: none', { stage: 'none' }],
      ['tag', { tag: w.tagId }],
      ['joined in March', { joined_from: `${new Date().getFullYear()}-03-01`, joined_to: `${new Date().getFullYear()}-03-31` }],
      ['blocked', { blocked: true }],
      ['search "иван"', { search: 'иван' }],
      ['search "user_123"', { search: 'user_123' }],
      ['funnel + tag + search', { funnel: w.funnelId, tag: w.tagId, search: 'ann' }],
      ['folder (10 of 50 bots)', { folder: w.folderId }],
      ['static list (1 in 10)', { list: w.staticListId }],
      ['segment (folder, blocked)', { list: w.segmentId }],
    ];
    for (const [name, query] of cases) {
      const times: number[] = [];
      let count = 0;
      for (let i = 0; i < RUNS; i++) {
        const t0 = performance.now();
        count = (await contacts.list(w.ownerId, query)).count;
        times.push(performance.now() - t0);
      }
      const s = spread(times);
      console.log(`  ${name.padEnd(26)} ${String(count).padStart(7)} found   p50 ${s.p50.toFixed(1)} ms   p99 ${s.p99.toFixed(1)} ms`);
    }
    if (db.driver === 'postgres') {
      console.log('  plans (EXPLAIN of the page query):');
      const plan = async (extra: string, params: unknown[]) =>
        (await db.query<{ 'QUERY PLAN': string }>(`explain select p.id from people p join funnels f on f.id = p.funnel_id where f.owner_id = $1 ${extra} order by p.joined_at desc, p.id desc limit 50`, [w.ownerId, ...params]))
          .map((r) => r['QUERY PLAN'])
          .filter((line) => /Index|Seq Scan|Bitmap/.test(line))
          .map((line) => line.trim().replace(/\s+\(cost.*$/, ''))
          .join('; ');
      console.log(`    no filter: ${await plan('', [])}`);
      console.log(`    funnel:    ${await plan('and p.funnel_id = $2', [w.funnelId])}`);
      console.log(`    stage:     ${await plan('and p.stage_id = $2', [w.stageId])}`);
      console.log(`    tag:       ${await plan('and exists (select 1 from person_tags pt where pt.person_id = p.id and pt.tag_id = $2)', [w.tagId])}`);
      console.log(`    blocked:   ${await plan('and p.blocked', [])}`);
      console.log(`    folder:    ${await plan('and p.funnel_id in (select fo.id from funnels fo where fo.folder_id = $2)', [w.folderId])}`);
      console.log(`    list:      ${await plan('and exists (select 1 from contact_list_members m where m.person_id = p.id and m.list_id = any($2::int[]))', [[w.staticListId]])}`);
    }
    let peakRss = 0;
    const before = process.memoryUsage().rss;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
    const t0 = performance.now();
    let bytes = 0;
    let lines = 0;
    for await (const chunk of await contacts.exportCsv(w.ownerId, {}, { language: 'en', timeZone: 'UTC' })) {
      bytes += Buffer.byteLength(chunk);
      lines += chunk.split('\r\n').length - 1;
    }
    clearInterval(sampler);
    const ms = performance.now() - t0;
    console.log(
      `  CSV export of all: ${(lines - 1).toLocaleString('en')} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB in ${(ms / 1000).toFixed(2)} s; RSS ${Math.round(before / 1024 / 1024)} MB before, peak ${Math.round(Math.max(peakRss, before) / 1024 / 1024)} MB while streaming`,
    );
  } finally {
    await cleanup();
  }
}

await main();
