// /content/funnels/$funnelId/mailings/new/ and …/$mailingId/edit/: a mailing's title, its message
// in the shared editor (text, a picture or a video, URL buttons; no next-step button), who gets it
// (stages and tags, each taken in or left out, with a live count; people who blocked the bot are
// always left out) and the paid burst. Saving keeps it as a draft; sending is on its own screen,
// after the pre-send check.
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Funnel, Stage, Tag } from '../../../contract/funnels';
import type { ContactList } from '../../../contract/crm';
import { MAILING_TITLE_MAX, type Audience, type Mailing } from '../../../contract/mailings';
import { runChange, runRead } from '@/api/action';
import { countAudience, createMailing, updateMailing } from '@/api/mailings';
import { describeFailure, success, type TranslatedFailure } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { Button, FormAlert, TextField } from '@/ui/form';
import { draftLimit, MessageEditor, type MessageDraft } from '@/ui/message-editor/MessageEditor';
import { useMessageDraft } from '@/ui/message-editor/useMessageDraft';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { useUnsavedGuard } from '@/ui/UnsavedGuard';
import './mailings.css';

const NO_ERRORS: TranslatedFailure = { fields: {}, messages: [] };
const EVERYONE: Audience = { stages_in: [], stages_out: [], tags_in: [], tags_out: [], lists_in: [] };
/** Mailings saved before lists existed have no lists_in. */
const normal = (a: Audience): Audience => ({ ...a, lists_in: a.lists_in ?? [] });
type Choice = 'in' | 'out' | null;

const sameAudience = (a: Audience, b: Audience) => JSON.stringify(a) === JSON.stringify(b);

export function MailingFormScreen({
  funnel,
  stages,
  tags,
  lists = [],
  mailing,
  initialLists = [],
}: {
  funnel: Funnel;
  stages: Stage[];
  tags: Tag[];
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

  function choiceOf(kind: 'stages' | 'tags', id: number): Choice {
    if (audience[`${kind}_in`].includes(id)) return 'in';
    if (audience[`${kind}_out`].includes(id)) return 'out';
    return null;
  }

  /** A tap goes round: any → only these → all but these → any. */
  function cycle(kind: 'stages' | 'tags', id: number) {
    const now = choiceOf(kind, id);
    const next: Choice = now === null ? 'in' : now === 'in' ? 'out' : null;
    const without = (list: number[]) => list.filter((x) => x !== id);
    setAudience({
      ...audience,
      [`${kind}_in`]: next === 'in' ? [...audience[`${kind}_in`], id] : without(audience[`${kind}_in`]),
      [`${kind}_out`]: next === 'out' ? [...audience[`${kind}_out`], id] : without(audience[`${kind}_out`]),
    });
    setErrors((current) => ({ ...current, fields: { ...current.fields, audience: [] } }));
  }

  function toggleList(id: number) {
    const chosen = audience.lists_in ?? [];
    setAudience({ ...audience, lists_in: chosen.includes(id) ? chosen.filter((x) => x !== id) : [...chosen, id] });
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

  const chip = (kind: 'stages' | 'tags', id: number, label: string) => {
    const choice = choiceOf(kind, id);
    return (
      <button
        key={id}
        type="button"
        className={`audience-chip${choice ? ` audience-chip--${choice}` : ''}`}
        aria-pressed={choice !== null}
        onClick={() => cycle(kind, id)}
        data-testid={`audience-${kind}-${id}`}
      >
        <span aria-hidden="true">{choice === 'in' ? '✓ ' : choice === 'out' ? '✕ ' : ''}</span>
        {label}
        <span className="visually-hidden">{choice === 'in' ? t('mailings.audience.onlyThese') : choice === 'out' ? t('mailings.audience.allBut') : ''}</span>
      </button>
    );
  };

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
          <div className="section audience">
            <p className="audience-hint">{t('mailings.audience.hint')}</p>
            {stages.length > 0 ? (
              <>
                <h3 className="audience-group">{t('mailings.audience.stages')}</h3>
                <div className="audience-chips">{stages.map((s) => chip('stages', s.id, s.title))}</div>
              </>
            ) : null}
            {tags.length > 0 ? (
              <>
                <h3 className="audience-group">{t('mailings.audience.tags')}</h3>
                <div className="audience-chips">{tags.map((tag) => chip('tags', tag.id, tag.title))}</div>
              </>
            ) : null}
            {lists.length > 0 ? (
              <>
                <h3 className="audience-group">{t('mailings.audience.lists')}</h3>
                <div className="audience-chips">
                  {lists.map((list) => {
                    const on = (audience.lists_in ?? []).includes(list.id);
                    return (
                      <button
                        key={list.id}
                        type="button"
                        className={`audience-chip${on ? ' audience-chip--in' : ''}`}
                        aria-pressed={on}
                        onClick={() => toggleList(list.id)}
                        data-testid={`audience-lists-${list.id}`}
                      >
                        <span aria-hidden="true">{on ? '✓ ' : ''}</span>
                        {list.name}
                      </button>
                    );
                  })}
                </div>
                <p className="audience-hint">{t('mailings.audience.listsHint')}</p>
              </>
            ) : null}
            <p className="audience-count" aria-live="polite" data-testid="audience-count">
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
