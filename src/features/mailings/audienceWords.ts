// A mailing's audience in words, in the user's language: "everyone in the funnel", "stage “Paid”,
// except tag “Refund”". Written once here for the form, the mailing, the list and the send sheet.
//
// The words follow the server's condition (server/mailings/audience.ts): within a group a person
// needs any one of the names ("or"); the groups all hold at once (joined by commas); and a person
// matching any exclusion is left out (so "except stage “Lost” and tag “Refund”" leaves out both).
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Language } from '../../../contract/constants';
import type { ContactList } from '../../../contract/crm';
import type { Stage, Tag } from '../../../contract/funnels';
import type { Audience } from '../../../contract/mailings';
import type { FunnelSource } from '../../../contract/sources';
import { currentLanguage } from '@/i18n/i18n';

/** What the audience's ids are called now; an id missing here was deleted since. */
export interface AudienceNames {
  stages: ReadonlyArray<Pick<Stage, 'id' | 'title'>>;
  tags: ReadonlyArray<Pick<Tag, 'id' | 'title'>>;
  lists: ReadonlyArray<Pick<ContactList, 'id' | 'name'>>;
  sources?: ReadonlyArray<Pick<FunnelSource, 'id' | 'name'>>;
  fields?: ReadonlyArray<{ id: number; title: string }>;
}

export const NO_NAMES: AudienceNames = { stages: [], tags: [], lists: [] };

/** "“A”, “B”, and “C”" / "«A», «B» и «C»": conditions that all hold. */
function allOf(parts: string[], language: Language): string {
  if (typeof Intl.ListFormat === 'function') return new Intl.ListFormat(language, { type: 'conjunction' }).format(parts);
  return parts.join(language === 'ru' ? ' и ' : ' and ');
}

/** "“A”, “B”, or “C”" / "«A», «B» или «C»". */
function anyOf(names: string[], language: Language): string {
  if (typeof Intl.ListFormat === 'function') return new Intl.ListFormat(language, { type: 'disjunction' }).format(names);
  return names.join(language === 'ru' ? ' или ' : ' or ');
}

export function audienceWords(audience: Audience, names: AudienceNames, t: TFunction, language: Language): string {
  const quoted = (ids: number[], known: ReadonlyArray<{ id: number; name: string }>) =>
    anyOf(
      ids.map((id) => {
        const name = known.find((k) => k.id === id)?.name;
        return name === undefined ? t('mailings.audienceWords.deleted') : t('mailings.audienceWords.quote', { name });
      }),
      language,
    );
  const stageNames = names.stages.map((s) => ({ id: s.id, name: s.title }));
  const tagNames = names.tags.map((s) => ({ id: s.id, name: s.title }));
  const listNames = names.lists.map((l) => ({ id: l.id, name: l.name }));

  const taken: string[] = [];
  if (audience.stages_in.length > 0) {
    const words = quoted(audience.stages_in, stageNames);
    taken.push(audience.stages_in.length === 1 ? t('mailings.audienceWords.stage', { names: words }) : t('mailings.audienceWords.stages', { names: words }));
  }
  if (audience.tags_in.length > 0) {
    const words = quoted(audience.tags_in, tagNames);
    taken.push(audience.tags_in.length === 1 ? t('mailings.audienceWords.tag', { names: words }) : t('mailings.audienceWords.tags', { names: words }));
  }
  const lists = audience.lists_in ?? [];
  if (lists.length > 0) {
    const words = quoted(lists, listNames);
    taken.push(lists.length === 1 ? t('mailings.audienceWords.list', { names: words }) : t('mailings.audienceWords.lists', { names: words }));
  }
  const sources = audience.sources_in ?? [];
  if (sources.length > 0) {
    const words = quoted(sources, (names.sources ?? []).map((s) => ({ id: s.id, name: s.name })));
    taken.push(sources.length === 1 ? t('mailings.audienceWords.source', { names: words }) : t('mailings.audienceWords.sources', { names: words }));
  }
  // Every field condition must hold (unlike the names within a group): said with "and".
  const fieldWords = (audience.fields ?? []).map((condition) => {
    const title = names.fields?.find((f) => f.id === condition.field_id)?.title;
    const name = title === undefined ? t('mailings.audienceWords.deleted') : t('mailings.audienceWords.quote', { name: title });
    return condition.value ? t('mailings.audienceWords.fieldIs', { name, value: condition.value }) : t('mailings.audienceWords.fieldSet', { name });
  });
  if (fieldWords.length > 0) taken.push(allOf(fieldWords, language));

  const left: string[] = [];
  if (audience.stages_out.length > 0) {
    const words = quoted(audience.stages_out, stageNames);
    left.push(
      audience.stages_out.length === 1 ? t('mailings.audienceWords.exceptStage', { names: words }) : t('mailings.audienceWords.exceptStages', { names: words }),
    );
  }
  if (audience.tags_out.length > 0) {
    const words = quoted(audience.tags_out, tagNames);
    left.push(audience.tags_out.length === 1 ? t('mailings.audienceWords.exceptTag', { names: words }) : t('mailings.audienceWords.exceptTags', { names: words }));
  }

  const included = taken.join(', ');
  const excluded = left.length === 2 ? t('mailings.audienceWords.both', { first: left[0], second: left[1] }) : (left[0] ?? '');
  if (left.length === 0) return included || t('mailings.audienceWords.everyone');
  if (taken.length === 0) return t('mailings.audienceWords.everyoneExcept', { excluded });
  return t('mailings.audienceWords.except', { included, excluded });
}

/** audienceWords in the current language. */
export function useAudienceWords(): (audience: Audience, names: AudienceNames) => string {
  const { t } = useTranslation();
  return (audience, names) => audienceWords(audience, names, t, currentLanguage());
}
