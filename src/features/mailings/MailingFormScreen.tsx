// /content/funnels/$funnelId/mailings/new/ and …/$mailingId/edit/: a mailing's title, its message
// in the shared editor (text, a picture or a video, URL buttons; no next-step button), who gets it
// (everyone, or only the people of chosen stages, tags or lists; except chosen stages and tags; in
// words and with a live count; people who blocked the bot are always left out) and faster sending. Saving keeps it as a draft; sending is on its own screen,
// after the pre-send check.
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Funnel, Stage, Tag } from '../../../contract/funnels';
import type { ContactList } from '../../../contract/crm';
import { MAILING_TITLE_MAX, type Audience, type Mailing } from '../../../contract/mailings';
import { runChange, runRead } from '@/api/action';
import { countAudience, createMailing, updateMailing } from '@/api/mailings';
import { describeFailure, success, type TranslatedFailure } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { FieldFilter, type FieldFilterValue } from '@/ui/FieldFilter';
import { Button, FormAlert, TextField } from '@/ui/form';
import { draftLimit, MessageEditor, type MessageDraft } from '@/ui/message-editor/MessageEditor';
import { useMessageDraft } from '@/ui/message-editor/useMessageDraft';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { useUnsavedGuard } from '@/ui/UnsavedGuard';
import { CheckIcon } from '@/ui/icons';
import { useAudienceWords } from './audienceWords';
import type { FunnelField } from '../../../contract/fields';
import type { FunnelSource } from '../../../contract/sources';
import './mailings.css';

const NO_ERRORS: TranslatedFailure = { fields: {}, messages: [] };
const EVERYONE: Audience = { stages_in: [], stages_out: [], tags_in: [], tags_out: [], lists_in: [], sources_in: [], fields: [] };
/** Mailings saved before lists (or sources) existed have no lists_in (sources_in). */
const normal = (a: Audience): Audience => ({ ...a, lists_in: a.lists_in ?? [], sources_in: a.sources_in ?? [], fields: a.fields ?? [] });
type Side = 'in' | 'out';
type Included = Pick<Audience, 'stages_in' | 'tags_in' | 'lists_in' | 'sources_in' | 'fields'>;
type AudienceKind = 'stages' | 'tags' | 'lists' | 'sources';
/** The audience's field for one side and kind: lists and sources are only ever taken in. */
const sideKey = (side: Side, kind: AudienceKind) => (kind === 'lists' || kind === 'sources' ? `${kind}_in` : side === 'in' ? `${kind}_in` : `${kind}_out`) as
  | 'stages_in'
  | 'stages_out'
  | 'tags_in'
  | 'tags_out'
  | 'lists_in'
  | 'sources_in';
const includesSomeone = (a: Audience) => a.stages_in.length + a.tags_in.length + (a.lists_in ?? []).length + (a.sources_in ?? []).length + (a.fields ?? []).length > 0;

const sameAudience = (a: Audience, b: Audience) => JSON.stringify(a) === JSON.stringify(b);

/** Field conditions the form offers at once: a few fit a phone (the API takes up to FIELDS_MAX). */
const FIELD_CONDITIONS_SHOWN = 3;
/** One row of the field conditions; a row whose field is not chosen yet is no condition. */
interface FieldRow extends FieldFilterValue {
  key: number;
}
const conditionsOf = (rows: FieldRow[]): NonNullable<Audience['fields']> =>
  rows.flatMap((row) => (row.field === undefined ? [] : [row.field_value ? { field_id: row.field, value: row.field_value } : { field_id: row.field }]));

export function MailingFormScreen({
  funnel,
  stages,
  tags,
  lists = [],
  sources = [],
  fields = [],
  mailing,
  initialLists = [],
}: {
  funnel: Funnel;
  stages: Stage[];
  tags: Tag[];
  /** The funnel's sources: a source narrows the audience to the people who came by it. */
  sources?: FunnelSource[];
  /** The funnel's fields: having one (or one value of it) narrows the audience. */
  fields?: FunnelField[];
  /** The user's lists of contacts: a list narrows the audience to its people. */
  lists?: ContactList[];
  mailing: Mailing | null;
  /** A new mailing opened from a list starts with it chosen. */
  initialLists?: number[];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const ids = useId();
  const title = mailing ? t('mailings.editTitle') : t('mailings.new');
  usePageHead(title);
  const funnelId = String(funnel.id);
  const [savedDraft] = useState<MessageDraft>(() => ({
    text: mailing?.message.text ?? '',
    media: mailing?.message.media ?? null,
    mediaSrc: null,
    buttons: mailing?.message.buttons ?? [],
    nextOn: false,
    nextText: '',
  }));
  const [name, setName] = useState(mailing?.title ?? '');
  const { draft, changed, problems, editorProps } = useMessageDraft(savedDraft, funnel.id);
  const savedAudience = mailing ? normal(mailing.audience) : EVERYONE;
  const [audience, setAudience] = useState<Audience>(mailing ? savedAudience : { ...EVERYONE, lists_in: initialLists.filter((id) => lists.some((l) => l.id === id)) });
  const [narrowed, setNarrowed] = useState(() => includesSomeone(audience));
  // Keys keep each row's typed value in its own row when another row is removed.
  const rowKeys = useRef(0);
  const newRow = (condition: FieldFilterValue = {}): FieldRow => ({ key: rowKeys.current++, ...condition });
  const [fieldRows, setFieldRows] = useState<FieldRow[]>(() => {
    const saved = audience.fields ?? [];
    return saved.length > 0 ? saved.map((c) => newRow({ field: c.field_id, field_value: c.value })) : [newRow()];
  });
  const [stashed, setStashed] = useState<Included>({ stages_in: [], tags_in: [], lists_in: [], sources_in: [], fields: [] });
  const words = useAudienceWords();
  const [paid, setPaid] = useState(mailing?.paid_broadcast ?? false);
  const [count, setCount] = useState<number | null>(mailing?.audience_size ?? null);
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);
  const [tried, setTried] = useState(false);
  const nameProblem = tried && !name.trim() ? t('funnels.serverErrors.blank') : null;
  const dirty =
    !changed || name !== (mailing?.title ?? '') || !sameAudience(audience, savedAudience) || paid !== (mailing?.paid_broadcast ?? false);
  const guard = useUnsavedGuard(dirty);

  // The live count follows the choice, a moment after the last tap.
  useEffect(() => {
    let stale = false;
    const timer = setTimeout(() => {
      void runRead(() => countAudience(funnel.id, audience)).then((result) => {
        if (!stale && result.ok) setCount(result.value.count);
      });
    }, 250);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [audience, funnel.id]);

  /** A stage or tag is taken in or left out, never both: choosing it on one side frees the other. */
  function toggle(side: Side, kind: AudienceKind, id: number) {
    setAudience((current) => {
      const key = sideKey(side, kind);
      const chosen = current[key] ?? [];
      const next: Audience = { ...current, [key]: chosen.includes(id) ? chosen.filter((x) => x !== id) : [...chosen, id] };
      if (kind === 'lists' || kind === 'sources') return next;
      const other = sideKey(side === 'in' ? 'out' : 'in', kind);
      return { ...next, [other]: (current[other] ?? []).filter((x) => x !== id) };
    });
    setErrors((current) => ({ ...current, fields: { ...current.fields, audience: [] } }));
  }

  /** "Everyone" forgets the chosen stages, tags and lists, but brings them back on "Only…". */
  function chooseNarrowed(only: boolean) {
    if (only === narrowed) return;
    setNarrowed(only);
    if (only) {
      // Whatever was left out meanwhile stays left out.
      setAudience((current) => ({
        ...current,
        stages_in: stashed.stages_in.filter((id) => !current.stages_out.includes(id)),
        tags_in: stashed.tags_in.filter((id) => !current.tags_out.includes(id)),
        lists_in: stashed.lists_in,
        sources_in: stashed.sources_in,
        fields: stashed.fields,
      }));
    } else {
      setStashed({ stages_in: audience.stages_in, tags_in: audience.tags_in, lists_in: audience.lists_in ?? [], sources_in: audience.sources_in ?? [], fields: audience.fields ?? [] });
      setAudience((current) => ({ ...current, stages_in: [], tags_in: [], lists_in: [], sources_in: [], fields: [] }));
    }
    setErrors((current) => ({ ...current, fields: { ...current.fields, audience: [] } }));
  }

  /** The rows as shown, and the audience's field conditions from them (always one row, maybe empty). */
  function changeFieldRows(rows: FieldRow[]) {
    setFieldRows(rows.length > 0 ? rows : [newRow()]);
    setAudience((current) => ({ ...current, fields: conditionsOf(rows) }));
    setErrors((current) => ({ ...current, fields: { ...current.fields, audience: [] } }));
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (problems.any || !name.trim()) return;
    const body = {
      title: name.trim(),
      message: { text: draft.text, media_id: draft.media?.id ?? null, buttons: draft.buttons.map((b) => ({ text: b.text.trim(), url: b.url.trim() })) },
      audience,
      paid_broadcast: paid,
    };
    setErrors(NO_ERRORS);
    const result = await runChange(() => (mailing ? updateMailing(mailing.id, body) : createMailing(funnel.id, body)));
    if (!result.ok) return setErrors(describeFailure(result.failure, ['title', 'text', 'media_id', 'buttons', 'audience']));
    guard.release();
    success(t('mailings.saved'));
    await navigate({ to: '/content/funnels/$funnelId/mailings/$mailingId/', params: { funnelId, mailingId: String(result.value.id) } });
  }

  const chips = (side: Side, kind: AudienceKind, options: Array<{ id: number; label: string }>, heading: string) =>
    options.length === 0 ? null : (
      <div className="audience-group" role="group" aria-labelledby={`${ids}-${side}-${kind}`}>
        <h3 className="audience-group-title" id={`${ids}-${side}-${kind}`}>
          {heading}
        </h3>
        <div className="audience-chips">
          {options.map(({ id, label }) => {
            const on = (audience[sideKey(side, kind)] ?? []).includes(id);
            return (
              <button
                key={id}
                type="button"
                className={`audience-chip${on ? ` audience-chip--${side}` : ''}`}
                aria-pressed={on}
                onClick={() => toggle(side, kind, id)}
                data-testid={`audience-${side === 'in' ? 'only' : 'except'}-${kind}-${id}`}
              >
                <span className="audience-chip-mark" aria-hidden="true">
                  {on ? (side === 'in' ? '✓' : '✕') : '+'}
                </span>
                {label}
              </button>
            );
          })}
        </div>
      </div>
    );
  const stageOptions = stages.map((s) => ({ id: s.id, label: s.title }));
  const tagOptions = tags.map((tag) => ({ id: tag.id, label: tag.title }));
  const listOptions = lists.map((list) => ({ id: list.id, label: list.name }));
  const sourceOptions = sources.map((source) => ({ id: source.id, label: source.name }));
  const nothingChosen = !includesSomeone(audience);

  return (
    <Screen>
      <ScreenHeader
        title={title}
        subtitle={funnel.name}
        back={
          mailing ? (
            <BackLink to="/content/funnels/$funnelId/mailings/$mailingId/" params={{ funnelId, mailingId: String(mailing.id) }} label={t('common.back')} />
          ) : (
            <BackLink to="/content/funnels/$funnelId/mailings/" params={{ funnelId }} label={t('mailings.title')} />
          )
        }
      />
      <form className="form message-editor" onSubmit={(event) => void save(event)} noValidate>
        <FormAlert messages={errors.messages} />
        {guard.dialog}
        <TextField
          label={t('mailings.fields.title')}
          value={name}
          maxLength={MAILING_TITLE_MAX}
          onChange={(event) => setName(event.target.value)}
          errors={[...(errors.fields.title ?? []), ...(nameProblem ? [nameProblem] : [])]}
          placeholder={t('mailings.fields.titlePlaceholder')}
          data-testid="mailing-title"
        />
        <MessageEditor
          {...editorProps(errors.fields, tried)}
          botName={funnel.name}
          nextStep={false}
        />

        <section className="section-block" aria-labelledby={`${ids}-audience`}>
          <h2 className="section-title" id={`${ids}-audience`}>
            {t('mailings.audience.title')}
          </h2>
          <fieldset className="section radio-list audience-mode">
            <legend className="visually-hidden">{t('mailings.audience.sendTo')}</legend>
            <label className="row radio-row">
              <input
                type="radio"
                name={`${ids}-mode`}
                className="visually-hidden"
                checked={!narrowed}
                onChange={() => chooseNarrowed(false)}
                data-testid="audience-everyone"
              />
              <span className="row-body">
                <span className="row-title">{t('mailings.audience.everyone')}</span>
              </span>
              <CheckIcon className="radio-check" />
            </label>
            <label className="row radio-row">
              <input
                type="radio"
                name={`${ids}-mode`}
                className="visually-hidden"
                checked={narrowed}
                onChange={() => chooseNarrowed(true)}
                data-testid="audience-only"
              />
              <span className="row-body">
                <span className="row-title">{t('mailings.audience.only')}</span>
              </span>
              <CheckIcon className="radio-check" />
            </label>
            {narrowed ? (
              <div className="audience">
                {nothingChosen ? <p className="audience-hint">{t('mailings.audience.onlyNothing')}</p> : null}
                {chips('in', 'stages', stageOptions, t('mailings.audience.onlyStages'))}
                {chips('in', 'tags', tagOptions, t('mailings.audience.onlyTags'))}
                {chips('in', 'lists', listOptions, t('mailings.audience.onlyLists'))}
                {chips('in', 'sources', sourceOptions, t('mailings.audience.onlySources'))}
                {fields.length > 0 ? (
                  <div className="audience-group" role="group" aria-labelledby={`${ids}-in-fields`}>
                    <h3 className="audience-group-title" id={`${ids}-in-fields`}>
                      {fieldRows.length > 1 ? t('mailings.audience.onlyFields') : t('mailings.audience.onlyField')}
                    </h3>
                    {fieldRows.map((row, index) => {
                      const chosenElsewhere = new Set(fieldRows.filter((other) => other.key !== row.key).map((other) => other.field));
                      const removable = fieldRows.length > 1 || row.field !== undefined;
                      return (
                        <div key={row.key} className="audience-field-row" data-testid="audience-field-row">
                          <FieldFilter
                            // A field twice would ask for two values at once: each field once.
                            fields={fields.filter((field) => !chosenElsewhere.has(field.id))}
                            value={row}
                            onChange={(next) => changeFieldRows(fieldRows.map((other) => (other.key === row.key ? { key: row.key, ...next } : other)))}
                            testId={index === 0 ? 'audience' : `audience-${index + 1}`}
                          />
                          {removable ? (
                            <button
                              type="button"
                              className="audience-field-remove"
                              aria-label={t('mailings.audience.removeField')}
                              title={t('mailings.audience.removeField')}
                              onClick={() => changeFieldRows(fieldRows.filter((other) => other.key !== row.key))}
                              data-testid={`audience-field-remove-${index + 1}`}
                            >
                              <span aria-hidden="true">✕</span>
                            </button>
                          ) : null}
                        </div>
                      );
                    })}
                    {fieldRows.length < Math.min(FIELD_CONDITIONS_SHOWN, fields.length) && fieldRows.every((row) => row.field !== undefined) ? (
                      <button type="button" className="audience-field-add" onClick={() => setFieldRows([...fieldRows, newRow()])} data-testid="audience-field-add">
                        <span aria-hidden="true">+</span> {t('mailings.audience.addField')}
                      </button>
                    ) : null}
                  </div>
                ) : null}
              </div>
            ) : null}
          </fieldset>
        </section>

        {stages.length + tags.length > 0 ? (
          <section className="section-block" aria-labelledby={`${ids}-except`}>
            <h2 className="section-title" id={`${ids}-except`}>
              {t('mailings.audience.except')}
            </h2>
            <div className="section audience">
              {chips('out', 'stages', stageOptions, t('mailings.audience.exceptStages'))}
              {chips('out', 'tags', tagOptions, t('mailings.audience.exceptTags'))}
            </div>
            <p className="section-footer">{t('mailings.audience.exceptHint')}</p>
          </section>
        ) : null}

        <section className="section-block">
          <div className="section audience audience-summary" aria-live="polite">
            <p className="audience-words" data-testid="audience-words">
              {t('mailings.audienceLine', { audience: words(audience, { stages, tags, lists, sources, fields }) })}
            </p>
            <p className="audience-count" data-testid="audience-count">
              {count === null ? t('mailings.audience.counting') : t('mailings.audience.count', { count })}
            </p>
          </div>
          <p className={errors.fields.audience?.length ? 'field-error' : 'section-footer'}>
            {errors.fields.audience?.length ? errors.fields.audience.join(' ') : t('mailings.audience.blockedLeftOut')}
          </p>
        </section>

        <section className="section-block">
          <div className="section">
            <label className="row switch-row">
              <span className="row-body">
                <span className="row-title">{t('mailings.paid.toggle')}</span>
                <span className="row-description">{t('mailings.paid.hint')}</span>
              </span>
              <input type="checkbox" className="switch" role="switch" checked={paid} onChange={(event) => setPaid(event.target.checked)} />
            </label>
          </div>
        </section>

        <Button type="submit" disabled={draftLimit(draft).over} data-testid="save-mailing">
          {t('mailings.saveDraft')}
        </Button>
      </form>
    </Screen>
  );
}
