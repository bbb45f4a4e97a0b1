import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Audience } from '../../../contract/mailings';
import en from '../../../locales/en.json';
import ru from '../../../locales/ru.json';
import { audienceWords, type AudienceNames } from './audienceWords';

const names: AudienceNames = {
  stages: [
    { id: 1, title: 'Paid' },
    { id: 2, title: 'Trial' },
    { id: 3, title: 'Lost' },
  ],
  tags: [
    { id: 10, title: 'VIP' },
    { id: 11, title: 'Refund' },
    { id: 12, title: 'Spam' },
  ],
  lists: [{ id: 20, name: 'Regulars' }],
};

const audience = (parts: Partial<Audience>): Audience => ({ stages_in: [], stages_out: [], tags_in: [], tags_out: [], lists_in: [], ...parts });

let english: TFunction;
let russian: TFunction;
beforeAll(async () => {
  const instance = i18next.createInstance();
  await instance.init({ resources: { en: { common: en }, ru: { common: ru } }, lng: 'en', defaultNS: 'common', interpolation: { escapeValue: false } });
  english = instance.getFixedT('en');
  russian = instance.getFixedT('ru');
});

describe('an audience in words', () => {
  it('says everyone when nothing narrows it (also for a mailing saved before lists)', () => {
    expect(audienceWords(audience({}), names, english, 'en')).toBe('everyone in the funnel');
    expect(audienceWords({ stages_in: [], stages_out: [], tags_in: [], tags_out: [] }, names, russian, 'ru')).toBe('все люди воронки');
  });

  it('names one stage taken in and one tag left out', () => {
    const paidButRefund = audience({ stages_in: [1], tags_out: [11] });
    expect(audienceWords(paidButRefund, names, english, 'en')).toBe('stage “Paid”, except tag “Refund”');
    expect(audienceWords(paidButRefund, names, russian, 'ru')).toBe('этап «Paid», кроме тега «Refund»');
  });

  it('joins the names of a group with "or" and the groups with commas, as the server matches them', () => {
    const mixed = audience({ stages_in: [1, 2], tags_in: [10], lists_in: [20], tags_out: [11] });
    expect(audienceWords(mixed, names, english, 'en')).toBe('stages “Paid” or “Trial”, tag “VIP”, list “Regulars”, except tag “Refund”');
    expect(audienceWords(mixed, names, russian, 'ru')).toBe('этапы «Paid» или «Trial», тег «VIP», список «Regulars», кроме тега «Refund»');
  });

  it('leaves out whoever matches any exclusion: "everyone except … and …"', () => {
    const leftOut = audience({ stages_out: [3], tags_out: [11, 12] });
    expect(audienceWords(leftOut, names, english, 'en')).toBe('everyone except stage “Lost” and tags “Refund” or “Spam”');
    expect(audienceWords(leftOut, names, russian, 'ru')).toBe('все, кроме этапа «Lost» и тегов «Refund» или «Spam»');
  });

  it('lists three names with the language’s own "or"', () => {
    const three = audience({ stages_in: [1, 2, 3] });
    expect(audienceWords(three, names, english, 'en')).toBe('stages “Paid”, “Trial”, or “Lost”');
    expect(audienceWords(three, names, russian, 'ru')).toBe('этапы «Paid», «Trial» или «Lost»');
  });

  it('says so for a stage, tag or list deleted since', () => {
    const gone = audience({ stages_in: [99], lists_in: [98] });
    expect(audienceWords(gone, names, english, 'en')).toBe('stage (deleted), list (deleted)');
    expect(audienceWords(gone, names, russian, 'ru')).toBe('этап (удалён), список (удалён)');
  });

  it('names a field the audience needs, or its value', () => {
    const withFields = { ...names, fields: [{ id: 30, title: 'City' }] };
    expect(audienceWords(audience({ fields: [{ field_id: 30 }] }), withFields, english, 'en')).toBe('with field “City”');
    expect(audienceWords(audience({ stages_in: [1], fields: [{ field_id: 30, value: 'Moscow' }] }), withFields, russian, 'ru')).toBe('этап «Paid», «City» = «Moscow»');
  });

  it('joins several field conditions with "and": a person needs all of them', () => {
    const withFields = { ...names, fields: [{ id: 30, title: 'City' }, { id: 31, title: 'Plan' }] };
    const two = audience({ tags_in: [10], fields: [{ field_id: 30, value: 'Moscow' }, { field_id: 31 }] });
    expect(audienceWords(two, withFields, english, 'en')).toBe('tag “VIP”, “City” is “Moscow” and with field “Plan”');
    expect(audienceWords(two, withFields, russian, 'ru')).toBe('тег «VIP», «City» = «Moscow» и с полем «Plan»');
  });
});
