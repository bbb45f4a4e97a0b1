// /content/funnels/$funnelId/series/$seriesId/: one series — on or off, who joins (on /start, on
// reaching a stage, on getting a tag, or by hand) and who leaves (a stage, a tag; blocking the bot
// always), the time zone and the downtime cut-off, and its letters in order.
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Stage, Tag } from '../../../contract/funnels';
import type { Funnel } from '../../../contract/funnels';
import { CATCH_UP_HOURS_MAX, JOIN_TRIGGERS, type JoinTrigger, type Series } from '../../../contract/letters';
import { runChange } from '@/api/action';
import { deleteSeries, setSeriesEnabled, updateLetter, updateSeries } from '@/api/letters';
import { describeFailure, noticeFailure, success } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { RowContent, Section } from '@/ui/blocks';
import { ConfirmDialog } from '@/ui/Dialog';
import { Button } from '@/ui/form';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { canOfferSwitchOn, seriesStatus, useSendingTimeText } from './parts';
import { deviceTimeZone } from './SeriesListScreen';
import './letters.css';

export function SeriesScreen({ funnel, series, stages, tags }: { funnel: Funnel; series: Series; stages: Stage[]; tags: Tag[] }) {
  const { t } = useTranslation();
  usePageHead(series.name);
  const navigate = useNavigate();
  const timeText = useSendingTimeText();
  const funnelId = String(funnel.id);
  const seriesId = String(series.id);
  const [enableError, setEnableError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const status = seriesStatus(series);

  async function toggle(enabled: boolean) {
    setEnableError(null);
    const result = await runChange(() => setSeriesEnabled(series.id, enabled));
    if (!result.ok) {
      const { fields, messages } = describeFailure(result.failure);
      return setEnableError([...messages, ...Object.values(fields).flat()].join(' '));
    }
    success(enabled ? t('letters.turnedOn') : t('letters.turnedOff'));
  }

  // The offer switches on the letters that have a time too: a series goes on only with a letter
  // on, and a new letter starts off, so the first timed letter alone would be refused.
  async function switchOnWithLetters() {
    setEnableError(null);
    const lettersToSwitchOn = status === 'lettersOff' ? series.letters.filter((letter) => letter.sending_time) : [];
    for (const letter of lettersToSwitchOn) {
      const result = await runChange(() => updateLetter(letter.id, { enabled: true }));
      if (!result.ok) return noticeFailure(result.failure);
    }
    await toggle(true);
  }

  async function save(patch: Parameters<typeof updateSeries>[1]) {
    const result = await runChange(() => updateSeries(series.id, patch));
    if (!result.ok) return noticeFailure(result.failure);
    success(t('letters.saved'));
  }

  async function remove() {
    const result = await runChange(() => deleteSeries(series.id));
    setConfirmDelete(false);
    if (!result.ok) return noticeFailure(result.failure);
    await navigate({ to: '/content/funnels/$funnelId/series/', params: { funnelId } });
  }

  const join = series.join_on;
  const setJoin = (on: JoinTrigger) =>
    void save({ join_on: { on, stage_id: on === 'stage' ? (join.stage_id ?? stages[0]?.id ?? null) : null, tag_id: on === 'tag' ? (join.tag_id ?? tags[0]?.id ?? null) : null } });

  return (
    <Screen>
      <ScreenHeader title={series.name} subtitle={funnel.name} back={<BackLink to="/content/funnels/$funnelId/series/" params={{ funnelId }} label={t('letters.title')} />} />

      {canOfferSwitchOn(status) ? (
        <section className="section-block series-offer" data-testid="series-offer">
          <p className="series-offer-text">{status === 'lettersOff' ? t('letters.offerWithLetters') : t('letters.offer')}</p>
          <Button onClick={() => void switchOnWithLetters()} data-testid="series-offer-on">
            {t('letters.offerButton')}
          </Button>
        </section>
      ) : null}

      <Section footer={enableError ? <span className="field-error" role="alert">{enableError}</span> : t('letters.onHint')}>
        <label className="row switch-row">
          <span className="row-body">
            <span className="row-title" data-testid="series-state">{series.enabled ? t('letters.turnedOn') : t('letters.turnedOff')}</span>
            <span className="row-description">{t('letters.membersCount', { count: series.members_count })}</span>
          </span>
          <input type="checkbox" className="switch" role="switch" checked={series.enabled} onChange={(e) => void toggle(e.target.checked)} data-testid="series-enabled" />
        </label>
      </Section>

      <section className="section-block">
        <h2 className="section-title">{t('letters.lettersTitle')}</h2>
        <div className="section">
          {series.letters.length === 0 ? <p className="series-empty">{t('letters.noLetters')}</p> : null}
          {series.letters.map((letter, index) => (
            <Link
              key={letter.id}
              to="/content/funnels/$funnelId/series/$seriesId/letters/$letterId/"
              params={{ funnelId, seriesId, letterId: String(letter.id) }}
              className="row"
              data-testid="letter-row"
            >
              <RowContent
                title={`${index + 1}. ${letter.name}`}
                description={timeText(letter.sending_time)}
                value={<span className={`series-state${letter.enabled && letter.sent_count > 0 ? ' series-state--on' : ''}`} data-testid="letter-state">{letter.enabled ? t('letters.sentCount', { count: letter.sent_count }) : t('letters.off')}</span>}
              />
            </Link>
          ))}
        </div>
      </section>
      <Link to="/content/funnels/$funnelId/series/$seriesId/letters/new/" params={{ funnelId, seriesId }} className="button button--primary" data-testid="add-letter">
        {t('letters.addLetter')}
      </Link>

      <section className="section-block">
        <h2 className="section-title">{t('letters.rules')}</h2>
        <div className="section series-rules">
          <label className="series-field">
            <span>{t('letters.joinOn')}</span>
            <select className="field-input" value={join.on} onChange={(e) => setJoin(e.target.value as JoinTrigger)} data-testid="join-on">
              {JOIN_TRIGGERS.map((on) => (
                <option key={on} value={on} disabled={(on === 'stage' && stages.length === 0) || (on === 'tag' && tags.length === 0)}>
                  {t(`letters.join.${on}`)}
                </option>
              ))}
            </select>
          </label>
          {join.on === 'stage' ? (
            <select className="field-input" aria-label={t('letters.join.stage')} value={join.stage_id ?? ''} onChange={(e) => void save({ join_on: { on: 'stage', stage_id: Number(e.target.value), tag_id: null } })}>
              {stages.map((s) => (
                <option key={s.id} value={s.id}>{s.title}</option>
              ))}
            </select>
          ) : null}
          {join.on === 'tag' ? (
            <select className="field-input" aria-label={t('letters.join.tag')} value={join.tag_id ?? ''} onChange={(e) => void save({ join_on: { on: 'tag', stage_id: null, tag_id: Number(e.target.value) } })}>
              {tags.map((tag) => (
                <option key={tag.id} value={tag.id}>{tag.title}</option>
              ))}
            </select>
          ) : null}
          <label className="series-field">
            <span>{t('letters.leaveStage')}</span>
            <select
              className="field-input"
              value={series.leave_on.stage_id ?? ''}
              onChange={(e) => void save({ leave_on: { ...series.leave_on, stage_id: e.target.value ? Number(e.target.value) : null } })}
            >
              <option value="">{t('letters.none')}</option>
              {stages.map((s) => (
                <option key={s.id} value={s.id}>{s.title}</option>
              ))}
            </select>
          </label>
          <label className="series-field">
            <span>{t('letters.leaveTag')}</span>
            <select className="field-input" value={series.leave_on.tag_id ?? ''} onChange={(e) => void save({ leave_on: { ...series.leave_on, tag_id: e.target.value ? Number(e.target.value) : null } })}>
              <option value="">{t('letters.none')}</option>
              {tags.map((tag) => (
                <option key={tag.id} value={tag.id}>{tag.title}</option>
              ))}
            </select>
          </label>
          <label className="series-field">
            <span>{t('letters.catchUp')}</span>
            <input
              className="field-input"
              type="number"
              min={1}
              max={CATCH_UP_HOURS_MAX}
              defaultValue={series.catch_up_hours}
              onBlur={(e) => {
                const value = Number(e.target.value);
                if (value !== series.catch_up_hours && Number.isInteger(value) && value >= 1 && value <= CATCH_UP_HOURS_MAX) void save({ catch_up_hours: value });
              }}
            />
          </label>
          <p className="series-zone">
            {t('letters.timeZone', { zone: series.time_zone })}
            {series.time_zone !== deviceTimeZone() ? (
              <button type="button" className="link-button" onClick={() => void save({ time_zone: deviceTimeZone() })}>
                {t('letters.useMyZone', { zone: deviceTimeZone() })}
              </button>
            ) : null}
          </p>
        </div>
        <p className="section-footer">{t('letters.leaveHint')}</p>
      </section>

      <Button variant="destructive" onClick={() => setConfirmDelete(true)}>
        {t('letters.delete')}
      </Button>
      {confirmDelete ? (
        <ConfirmDialog title={t('letters.deleteTitle')} confirmLabel={t('letters.delete')} cancelLabel={t('funnels.common.cancel')} destructive onConfirm={() => void remove()} onCancel={() => setConfirmDelete(false)}>
          <p>{t('letters.deleteText')}</p>
        </ConfirmDialog>
      ) : null}
    </Screen>
  );
}
