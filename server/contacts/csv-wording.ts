// The words of the contacts CSV, in both interface languages: a person opens the file in a
// spreadsheet, so its headers and its yes/no are in the language of the app they downloaded it
// from. (The SPA's strings live in locales/*.json; these never reach the browser.)
import type { Language } from '../../contract/constants';
import type { CONTACTS_CSV_COLUMNS } from '../../contract/contacts';

export type ContactsCsvColumn = (typeof CONTACTS_CSV_COLUMNS)[number];

export interface ContactsCsvWording {
  columns: Record<ContactsCsvColumn, string>;
  yes: string;
  no: string;
}

export const CONTACTS_CSV_WORDING: Record<Language, ContactsCsvWording> = {
  en: {
    columns: {
      id: 'ID',
      funnel: 'Funnel',
      bot: 'Bot',
      first_name: 'First name',
      last_name: 'Last name',
      username: 'Username',
      telegram_id: 'Telegram ID',
      stage: 'Stage',
      source: 'Source',
      tags: 'Tags',
      blocked: 'Blocked the bot',
      joined_at: 'Joined',
      last_seen_at: 'Last seen',
    },
    yes: 'yes',
    no: 'no',
  },
  ru: {
    columns: {
      id: 'ID',
      funnel: 'Воронка',
      bot: 'Бот',
      first_name: 'Имя',
      last_name: 'Фамилия',
      username: 'Имя пользователя',
      telegram_id: 'Telegram ID',
      stage: 'Этап',
      source: 'Источник',
      tags: 'Теги',
      blocked: 'Заблокировал бота',
      joined_at: 'В воронке с',
      last_seen_at: 'Последняя активность',
    },
    yes: 'да',
    no: 'нет',
  },
};
