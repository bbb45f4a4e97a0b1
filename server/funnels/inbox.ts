// The inbox of a funnel: what people wrote to its bot, one conversation per person, newest first,
// with what the owner has not read yet; and the owner's reply, sent through the funnel's bot and
// kept in the person's history. The runtime records what comes in (runtime/store.ts).
import { and, desc, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { InboxPage } from '../../contract/funnels';
import { PEOPLE_PAGE_DEFAULT, PEOPLE_PAGE_MAX } from '../../contract/funnels';
import type { Config } from '../config';
import type { Db } from '../db';
import { funnels, people, personEvents, personTags } from '../db/schema';
import { messageProblems } from '../messages/validate';
import { TEXT_OPTIONS } from '../messages/render';
import { ownedFunnel, ownedPerson, ownersRow } from './access';
import { type BotApiFor, callTelegram, telegramRefusal } from './bot-api';
import { invalid, invalidField, invalidFields } from '../domain-error';
import { FUNNEL_ERRORS } from './errors';
import { refusalReason } from '../outbox/outcomes';
import { toPerson } from './people';
import { decryptBotToken } from './secret-box';

export function createInboxService({ db, config, botApi }: { db: Db; config: Pick<Config, 'secretKey'>; botApi: BotApiFor }) {
  const orm = db.orm;

  async function list(ownerId: number, funnelId: number, query: { limit?: number; offset?: number }): Promise<InboxPage> {
    await ownedFunnel(orm, ownerId, funnelId);
    const where = and(eq(people.funnelId, funnelId), isNotNull(people.lastMessageAt));
    const [totals] = await orm
      .select({ count: sql<number>`count(*)::int`, unread: sql<number>`coalesce(sum(${people.unreadCount}), 0)::int` })
      .from(people)
      .where(where);
    const rows = await orm
      .select({
        person: people,
        lastText: sql<string>`(select e.text from person_events e where e.person_id = "people"."id" and e.direction = 'in' and e.kind = 'text' order by e.id desc limit 1)`,
      })
      .from(people)
      .where(where)
      .orderBy(desc(people.lastMessageAt), desc(people.id))
      .limit(Math.min(query.limit ?? PEOPLE_PAGE_DEFAULT, PEOPLE_PAGE_MAX))
      .offset(query.offset ?? 0);
    const tagRows = rows.length
      ? await orm.select().from(personTags).where(inArray(personTags.personId, rows.map((r) => r.person.id)))
      : [];
    return {
      count: Number(totals.count),
      unread_total: Number(totals.unread),
      results: rows.map(({ person, lastText }) => ({
        person: toPerson(person, tagRows.filter((t) => t.personId === person.id).map((t) => t.tagId)),
        unread_count: person.unreadCount,
        last_text: lastText ?? '',
        last_message_at: (person.lastMessageAt ?? person.lastSeenAt).toISOString(),
      })),
    };
  }

  /** The owner has read the conversation. */
  async function markRead(ownerId: number, personId: number): Promise<void> {
    await ownedPerson(orm, ownerId, personId);
    await orm.update(people).set({ unreadCount: 0 }).where(and(ownersRow(orm, ownerId, people, personId), gt(people.unreadCount, 0)));
  }

  /**
   * Sends the owner's reply through the funnel's bot (running or not: the token is what counts),
   * then records it. Success only once Telegram has the message; a person who blocked the bot, a
   * revoked token and Telegram being down each say so.
   */
  async function reply(ownerId: number, personId: number, text: string): Promise<void> {
    const person = await ownedPerson(orm, ownerId, personId);
    const problems = await messageProblems({ text, media_id: null, buttons: [], next_button: null }, async () => false);
    if (problems) throw invalidFields({ text: problems.text ?? [] });
    const [funnel] = await orm.select().from(funnels).where(eq(funnels.id, person.funnelId)).limit(1);
    const api = botApi(decryptBotToken(funnel, config));
    let messageId: number;
    try {
      const sent = await api.sendMessage(person.telegramId, text, TEXT_OPTIONS);
      messageId = sent.message_id;
    } catch (error) {
      const refusal = telegramRefusal(error);
      if (refusal?.error_code === 403) {
        await orm.update(people).set({ blocked: true }).where(ownersRow(orm, ownerId, people, personId));
        throw invalidField('text', FUNNEL_ERRORS.personBlocked);
      }
      // Refused for this person's chat (chat not found, too long…): said as a reason, in the owner's words.
      if (refusal?.error_code === 400) throw invalidField('text', FUNNEL_ERRORS.notDelivered(refusalReason(refusal.description, 400), refusal.description));
      // 401, 5xx, the network: the same words as everywhere else.
      return callTelegram(() => Promise.reject(error), invalid(FUNNEL_ERRORS.tokenRevoked));
    }
    await orm.transaction(async (tx) => {
      await tx.insert(personEvents).values({ personId, funnelId: person.funnelId, direction: 'out', kind: 'reply', text, telegramMessageId: messageId });
      await tx.update(people).set({ unreadCount: 0 }).where(ownersRow(orm, ownerId, people, personId));
    });
  }

  return { list, markRead, reply };
}
