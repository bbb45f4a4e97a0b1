// /content/funnels/$funnelId/series/$seriesId/letters/new/ and …/$letterId/: a letter — its name,
// its message in the shared editor, its sending time (through or every N years, months, days or
// hours, with a time of day for days and longer) with the next five moments shown before saving,
// on or off — and its history ('No one received the letter' while empty).
import { useNavigate } from '@tanstack/react-router';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Funnel } from '../../../contract/funnels';
import { LETTER_NAME_MAX, type Letter, type LetterHistory, type Series } from '../../../contract/letters';
import { nextMoments, RECURRENCE_MAX, RECURRENCE_UNITS, validateSendingTime, type RecurrenceUnit, type SendingTime } from '../../../contract/recurrence';
import { runChange } from '@/api/action';
import { addLetter, deleteLetter, updateLetter } from '@/api/letters';
import { describeFailure, noticeFailure, success, type TranslatedFailure } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { TimeField } from '@/ui/DateTimeField';
import { ConfirmDialog } from '@/ui/Dialog';
import { Button, FormAlert, TextField } from '@/ui/form';
import { draftLimit, MessageEditor, type MessageDraft } from '@/ui/message-editor/MessageEditor';
import { useMessageDraft } from '@/ui/message-editor/useMessageDraft';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { useUnsavedGuard } from '@/ui/UnsavedGuard';
import { formatMomentIn } from './parts';
import './letters.css';

const NO_ERRORS: TranslatedFailure = { fields: {}, messages: [] };

interface TimeDraft {
  set: boolean;
  kind: 'through' | 'every';
  every: string;
  unit: RecurrenceUnit;
  timeOfDay: string;
}

const toDraft = (time: Letter['sending_time']): TimeDraft =>
  time ? { set: true, kind: time.kind, every: String(time.every), unit: time.unit, timeOfDay: time.time_of_day ?? '' } : { set: false, kind: 'through', every: '1', unit: 'days', timeOfDay: '10:00' };

const toSendingTime = (d: TimeDraft): unknown =>
  d.set ? { kind: d.kind, every: Number(d.every), unit: d.unit, time_of_day: d.unit === 'hours' || !d.timeOfDay ? null : d.timeOfDay } : null;

export function LetterScreen({ funnel, series, letter, history }: { funnel: Funnel; series: Series; letter: Letter | null; history: LetterHistory | null }) {
  const { t } = useTranslation();
  const ids = useId();
  const navigate = useNavigate();
  usePageHead(letter?.name ?? t('letters.newLetter'));
  const funnelId = String(funnel.id);
  const seriesId = String(series.id);
  const [savedDraft] = useState<MessageDraft>(() => ({ text: letter?.message.text ?? '', media: letter?.message.media ?? null, mediaSrc: null, buttons: letter?.message.buttons ?? [], nextOn: false, nextText: '' }));
  const { draft, changed, problems, editorProps } = useMessageDraft(savedDraft, funnel.id);
  const [name, setName] = useState(letter?.name ?? '');
  const [time, setTime] = useState<TimeDraft>(() => toDraft(letter?.sending_time ?? null));
  const [enabled, setEnabled] = useState(letter?.enabled ?? false);
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);
  const [tried, setTried] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const dirty =
    !changed || name !== (letter?.name ?? '') || JSON.stringify(toSendingTime(time)) !== JSON.stringify(letter?.sending_time ?? null) || enabled !== (letter?.enabled ?? false);
  const guard = useUnsavedGuard(dirty);
  const checked = time.set ? validateSendingTime(toSendingTime(time)) : null;
  const timeError = errors.fields.sending_time?.join(' ') ?? (checked && !checked.ok ? t('funnels.serverErrors.incorrectData') : null);
  const enabledError = errors.fields.enabled?.join(' ') ?? (tried && enabled && !time.set ? t('funnels.serverErrors.noSendingTime') : null);
  const preview = checked?.ok ? nextMoments(checked.value as SendingTime, new Date(), series.time_zone, 5) : [];

  async function save(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (problems.any || !name.trim() || (checked && !checked.ok) || (enabled && !time.set)) return;
    const body = {
      name: name.trim(),
      message: { text: draft.text, media_id: draft.media?.id ?? null, buttons: draft.buttons.map((b) => ({ text: b.text.trim(), url: b.url.trim() })) },
      sending_time: toSendingTime(time) as never,
      enabled,
    };
    setErrors(NO_ERRORS);
    const result = await runChange(() => (letter ? updateLetter(letter.id, body) : addLetter(series.id, body)));
    if (!result.ok) return setErrors(describeFailure(result.failure, ['name', 'text', 'buttons', 'sending_time', 'enabled']));
    guard.release();
    // A new letter and a new series start off: once a letter has a time, say the series is still off.
    success(!series.enabled && result.value.sending_time ? t('letters.letterSavedSeriesOff') : t('letters.letterSaved'));
    await navigate({ to: '/content/funnels/$funnelId/series/$seriesId/', params: { funnelId, seriesId } });
  }

  async function remove() {
    if (!letter) return;
    const result = await runChange(() => deleteLetter(letter.id));
    setConfirmDelete(false);
    if (!result.ok) return noticeFailure(result.failure);
    guard.release();
    await navigate({ to: '/content/funnels/$funnelId/series/$seriesId/', params: { funnelId, seriesId } });
  }

  const unitMax = RECURRENCE_MAX[time.unit];
  return (
    <Screen>
      <ScreenHeader title={letter?.name ?? t('letters.newLetter')} subtitle={series.name} back={<BackLink to="/content/funnels/$funnelId/series/$seriesId/" params={{ funnelId, seriesId }} label={series.name} />} />
      <form className="form message-editor" onSubmit={(event) => void save(event)} noValidate>
        <FormAlert messages={errors.messages} />
        {guard.dialog}
        <TextField
          label={t('letters.letterName')}
          value={name}
          maxLength={LETTER_NAME_MAX}
          onChange={(e) => setName(e.target.value)}
          errors={[...(errors.fields.name ?? []), ...(tried && !name.trim() ? [t('funnels.serverErrors.blank')] : [])]}
        />
        <MessageEditor
          {...editorProps(errors.fields, tried)}
          botName={funnel.name}
          nextStep={false}
        />

        <section className="section-block" aria-labelledby={`${ids}-time`}>
          <h2 className="section-title" id={`${ids}-time`}>
            {t('letters.sendingTime')}
          </h2>
          <div className="section series-rules">
            <label className="row switch-row">
              <span className="row-body">
                <span className="row-title">{t('letters.setTime')}</span>
              </span>
              <input type="checkbox" className="switch" role="switch" checked={time.set} onChange={(e) => setTime({ ...time, set: e.target.checked })} data-testid="time-set" />
            </label>
            {time.set ? (
              <div className="time-editor">
                <select className="field-input" aria-label={t('letters.kind')} value={time.kind} onChange={(e) => setTime({ ...time, kind: e.target.value as TimeDraft['kind'] })} data-testid="time-kind">
                  <option value="through">{t('letters.through')}</option>
                  <option value="every">{t('letters.every')}</option>
                </select>
                <input
                  className="field-input time-number"
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={unitMax}
                  aria-label={t('letters.amount')}
                  value={time.every}
                  onChange={(e) => setTime({ ...time, every: e.target.value })}
                  data-testid="time-every"
                />
                <select className="field-input" aria-label={t('letters.unit')} value={time.unit} onChange={(e) => setTime({ ...time, unit: e.target.value as RecurrenceUnit })} data-testid="time-unit">
                  {RECURRENCE_UNITS.map((unit) => (
                    <option key={unit} value={unit}>
                      {t(`letters.unitNames.${unit}`)}
                    </option>
                  ))}
                </select>
                {time.unit !== 'hours' ? (
                  <label className="series-field">
                    <span>{t('letters.timeOfDay')}</span>
                    <TimeField className="field-input" value={time.timeOfDay} onChange={(timeOfDay) => setTime({ ...time, timeOfDay })} data-testid="time-of-day" />
                  </label>
                ) : null}
              </div>
            ) : null}
          </div>
          {timeError ? (
            <p className="field-error" role="alert">
              {timeError}
            </p>
          ) : time.set && preview.length > 0 ? (
            <div className="section-footer">
              <p className="next-moments-title">{t('letters.nextMoments', { zone: series.time_zone })}</p>
              <ol className="next-moments" data-testid="next-moments">
                {preview.map((moment) => (
                  <li key={moment.toISOString()}>{formatMomentIn(moment, series.time_zone)}</li>
                ))}
              </ol>
            </div>
          ) : (
            <p className="section-footer">{t('letters.timeHint')}</p>
          )}
        </section>

        <section className="section-block">
          <div className="section">
            <label className="row switch-row">
              <span className="row-body">
                <span className="row-title">{t('letters.letterOn')}</span>
              </span>
              <input type="checkbox" className="switch" role="switch" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} data-testid="letter-enabled" />
            </label>
          </div>
          {enabledError ? (
            <p className="field-error" role="alert">
              {enabledError}
            </p>
          ) : null}
        </section>

        <Button type="submit" disabled={draftLimit(draft).over} data-testid="save-letter">
          {t('funnels.common.save')}
        </Button>
        {letter ? (
          <Button variant="destructive" onClick={() => setConfirmDelete(true)}>
            {t('letters.deleteLetter')}
          </Button>
        ) : null}
      </form>

      {history ? (
        <section className="section-block">
          <h2 className="section-title">{t('letters.history')}</h2>
          {history.count === 0 ? (
            <p className="section-footer" data-testid="letter-history-empty">
              {t('letters.noOneReceived')}
            </p>
          ) : (
            <div className="section">
              {history.results.map((r, i) => (
                <div key={`${r.person_id}-${r.moment}-${i}`} className="row" data-testid="letter-history-row">
                  <span className="row-body">
                    <span className="row-title">{[r.first_name, r.last_name].filter(Boolean).join(' ') || r.username || '—'}</span>
                    <span className="row-description">{formatMomentIn(r.sent_at ?? r.moment, series.time_zone)}</span>
                  </span>
                  <span className={`recipient-state recipient-state--${r.state}`}>{t(`letters.outcome.${r.state}`)}</span>
                </div>
              ))}
            </div>
          )}
        </section>
      ) : null}

      {confirmDelete ? (
        <ConfirmDialog title={t('letters.deleteLetterTitle')} confirmLabel={t('letters.deleteLetter')} cancelLabel={t('funnels.common.cancel')} destructive onConfirm={() => void remove()} onCancel={() => setConfirmDelete(false)}>
          <p>{t('letters.deleteLetterText')}</p>
        </ConfirmDialog>
      ) : null}
    </Screen>
  );
}
