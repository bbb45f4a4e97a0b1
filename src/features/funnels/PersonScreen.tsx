// /content/people/$personId/: one subscriber — profile, current stage, tags set and removed by
// hand, their series of letters, the same person in the owner's other funnels (one contact across
// bots), and the history of what they were sent and what they wrote or pressed.
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { ContactHistoryEntry, HistoryEntry, PersonDetail, Stage, Tag } from '../../../contract/funnels';
import { SOURCE_START_PREFIX } from '../../../contract/sources';
import { visibleText } from '../../../contract/telegram-html';
import { addPersonTag, contactHistory, movePerson, removePersonTag } from '@/api/funnels';
import { currentLanguage } from '@/i18n/i18n';
import { useTranslation } from 'react-i18next';
import type { PersonSeries } from '../../../contract/letters';
import { joinSeries, leaveSeries } from '@/api/letters';
import { usePageHead } from '@/state/ui';
import { RowContent, RowIcon, Section } from '@/ui/blocks';
import { BotIcon } from '@/ui/icons';
import { Screen } from '@/ui/Screen';
import { SegmentedTabs } from '@/ui/SegmentedTabs';
import { personName } from './parts';
import { BackLink } from '@/ui/BackLink';
import { StageBadge } from './StageIcon';
import { PersonTimers } from './PersonTimers';
import { PersonPayments } from './PersonPayments';
import { PersonFields } from './PersonFields';
import { runChange, runRead } from '@/api/action';
import { noticeFailure, success } from '@/api/useApi';

/** The route loads the person, then their funnel's tags and stages together. */
export function PersonScreen({
  person: data,
  tags,
  stages,
  series = [],
  from,
}: {
  person: PersonDetail;
  tags: Tag[];
  stages: Stage[];
  series?: PersonSeries;
  from?: 'people' | 'stage' | 'contacts';
}) {
  const { t } = useTranslation();
  const personId = data.id;
  usePageHead(personName(data));

  async function toggle(tag: Tag, on: boolean) {
    const result = await runChange(() => (on ? addPersonTag(personId, tag.id) : removePersonTag(personId, tag.id)));
    if (!result.ok) return noticeFailure(result.failure);
  }

  async function membership(seriesId: number, join: boolean) {
    const result = await runChange(() => (join ? joinSeries(seriesId, personId) : leaveSeries(seriesId, personId)));
    if (!result.ok) return noticeFailure(result.failure);
    success(join ? t('funnels.person.joinedSeries') : t('funnels.person.leftSeries'));
  }

  const [allBots, setAllBots] = useState(false);
  const [contactEvents, setContactEvents] = useState<ContactHistoryEntry[] | null>(null);
  async function showAllBots() {
    setAllBots(true);
    const result = await runRead(() => contactHistory(personId));
    if (!result.ok) {
      setAllBots(false);
      return noticeFailure(result.failure);
    }
    setContactEvents(result.value);
  }

  const stage = stages.find((s) => s.id === data.stage_id);
  const stageTitle = (id: number | null) => stages.find((s) => s.id === id)?.title;
  const dateTime = new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' });
  /** The /start that recorded their source, as the history keeps it. */
  const sourceCommand = data.source ? `/start ${SOURCE_START_PREFIX}${data.source.code}` : null;

  return (
    <Screen>
      <header className="screen-header">
        {/* Back to the list the person was opened from. */}
        {from === 'contacts' ? (
          <BackLink to="/content/contacts/" label={t('contacts.title')} />
        ) : from === 'people' ? (
          <BackLink to="/content/funnels/$funnelId/people/" params={{ funnelId: String(data.funnel_id) }} label={t('funnels.people.title')} />
        ) : from === 'stage' && stage ? (
          <BackLink to="/content/funnels/$funnelId/stages/$stageId/" params={{ funnelId: String(data.funnel_id), stageId: String(stage.id) }} label={stage.title} />
        ) : (
          <BackLink to="/content/funnels/$funnelId/" params={{ funnelId: String(data.funnel_id) }} label={t('common.back')} />
        )}
        <div className="person-hero">
          <span className="avatar" aria-hidden="true">
            {personName(data).charAt(0).toUpperCase()}
          </span>
          <div className="profile-body">
            <h1 className="screen-title person-name">{personName(data)}</h1>
            <p className="screen-subtitle">
              {data.username ? `@${data.username}` : t('funnels.person.noUsername')}
              {data.blocked ? <span className="person-blocked"> · {t('funnels.person.blocked')}</span> : null}
            </p>
          </div>
        </div>
      </header>

      <Section>
        {stage ? (
          <Link to="/content/funnels/$funnelId/stages/$stageId/" params={{ funnelId: String(data.funnel_id), stageId: String(stage.id) }} className="row">
            <StageBadge icon={stage.icon} color={stage.color} />
            <span className="row-body">
              <span className="row-description">{t('funnels.person.stage')}</span>
              <span className="row-title">{stage.title}</span>
            </span>
          </Link>
        ) : (
          <div className="row row--static">
            <span className="row-body">
              <span className="row-description">{t('funnels.person.stage')}</span>
              <span className="row-title">{t('funnels.person.noStage')}</span>
            </span>
          </div>
        )}
        {stages.length > 0 ? <MoveToStage person={data} stages={stages} /> : null}
        <div className="row row--static">
          <span className="row-body">
            <span className="row-description">{t('funnels.person.joined')}</span>
            <span className="row-title">{dateTime.format(new Date(data.joined_at))}</span>
          </span>
        </div>
        <div className="row row--static">
          <span className="row-body">
            <span className="row-description">{t('funnels.sources.source')}</span>
            <span className="row-title" data-testid="person-source">
              {data.source ? data.source.name : t('funnels.sources.noSource')}
            </span>
          </span>
        </div>
      </Section>

      <PersonTimers timers={data.timers} stages={stages} />
      <PersonPayments person={data} />
      <PersonFields personId={data.id} fields={data.fields} />

      <section className="section-block">
        <h2 className="section-title">{t('funnels.tags.title')}</h2>
        {tags.length > 0 ? (
          <div className="tag-toggles" role="group" aria-label={t('funnels.tags.title')}>
            {tags.map((tag) => {
              const on = data.tag_ids.includes(tag.id);
              return (
                <button
                  key={tag.id}
                  type="button"
                  className={`tag-toggle${on ? ' tag-toggle--on' : ''}`}
                  style={{ '--tag-color': tag.color } as React.CSSProperties}
                  aria-pressed={on}
                  onClick={() => void toggle(tag, !on)}
                >
                  <span className="tag-chip-dot" aria-hidden="true" />
                  {tag.title}
                </button>
              );
            })}
          </div>
        ) : (
          <p className="section-footer">
            {t('funnels.person.noTags')}{' '}
            <Link to="/content/funnels/$funnelId/tags/" params={{ funnelId: String(data.funnel_id) }} className="link">
              {t('funnels.stageForm.manageTags')}
            </Link>
          </p>
        )}
        <p className="section-footer">{t('funnels.person.tagsHint')}</p>
      </section>

      {series.length > 0 ? (
        <section className="section-block">
          <h2 className="section-title">{t('letters.title')}</h2>
          <div className="section">
            {series.map((s) => (
              <div key={s.id} className="row" data-testid="person-series">
                <span className="row-body">
                  <span className="row-title">{s.name}</span>
                  <span className="row-description">{s.member ? t('funnels.person.inSeries') : t('funnels.person.notInSeries')}</span>
                </span>
                <button type="button" className="button button--secondary button--small" onClick={() => void membership(s.id, !s.member)} disabled={!s.member && data.blocked}>
                  {s.member ? t('funnels.person.leaveSeries') : t('funnels.person.joinSeries')}
                </button>
              </div>
            ))}
          </div>
        </section>
      ) : null}

      {data.other_funnels.length > 0 ? (
        <Section title={t('funnels.person.otherFunnels')} footer={t('funnels.person.otherFunnelsText')}>
          {data.other_funnels.map((other) => (
            <Link key={other.person_id} to="/content/people/$personId/" params={{ personId: String(other.person_id) }} search={from ? { from } : {}} className="row" data-testid="other-funnel">
              <RowContent
                icon={
                  <RowIcon tint={other.blocked ? 'red' : 'blue'}>
                    <BotIcon />
                  </RowIcon>
                }
                title={other.funnel_name}
                description={[
                  other.bot_username ? `@${other.bot_username}` : null,
                  other.stage_title ?? t('funnels.person.noStage'),
                  ...other.tags.map((tag) => `#${tag}`),
                  ...other.series.map((name) => `✉ ${name}`),
                  other.blocked ? t('funnels.person.blocked') : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              />
            </Link>
          ))}
        </Section>
      ) : null}
      <section className="section-block">
        <div className="history-head">
          <h2 className="section-title">{t('funnels.person.history')}</h2>
          {data.other_funnels.length > 0 ? (
            <SegmentedTabs
              label={t('funnels.person.history')}
              options={[
                { value: 'thisBot', label: t('funnels.person.thisBot') },
                { value: 'allBots', label: t('funnels.person.allBots') },
              ]}
              value={allBots ? 'allBots' : 'thisBot'}
              onChange={(scope) => (scope === 'allBots' ? void showAllBots() : setAllBots(false))}
            />
          ) : null}
        </div>
        {allBots && contactEvents ? (
          contactEvents.length === 0 ? (
            <p className="section-footer">{t('funnels.person.noHistory')}</p>
          ) : (
            <ol className="history" data-testid="contact-history">
              {[...contactEvents].reverse().map((entry) => (
                <HistoryItem key={entry.id} entry={entry} stageTitle={entry.stage_title ?? undefined} time={dateTime.format(new Date(entry.created_at))} funnelName={entry.funnel_name} />
              ))}
            </ol>
          )
        ) : data.history.length === 0 ? (
          <p className="section-footer">{t('funnels.person.noHistory')}</p>
        ) : (
          <ol className="history" data-testid="history">
            {/* The API gives the latest entries newest first; a chat reads oldest at the top. */}
            {[...data.history].reverse().map((entry) => (
              <HistoryItem
                key={entry.id}
                entry={entry}
                stageTitle={stageTitle(entry.stage_id)}
                time={dateTime.format(new Date(entry.created_at))}
                shownText={entry.kind === 'command' && entry.text === sourceCommand ? t('funnels.sources.cameBy', { name: data.source?.name }) : undefined}
              />
            ))}
          </ol>
        )}
      </section>
    </Screen>
  );
}

function HistoryItem({
  entry,
  stageTitle,
  time,
  funnelName,
  shownText,
}: {
  entry: HistoryEntry;
  stageTitle: string | undefined;
  time: string;
  funnelName?: string;
  /** Words that stand for the entry's text (the source a "/start src_<code>" names). */
  shownText?: string;
}) {
  const { t } = useTranslation();
  const label =
    entry.kind === 'stage_message'
      ? t('funnels.person.sent', { stage: stageTitle ?? t('funnels.person.deletedStage') })
      : entry.kind === 'button'
        ? t('funnels.person.pressed')
        : entry.kind === 'command'
          ? t('funnels.person.command')
          : entry.kind === 'mailing'
            ? t('funnels.person.mailing')
            : entry.kind === 'letter'
              ? t('funnels.person.letter')
            : entry.kind === 'reply'
              ? t('funnels.inbox.you')
              : t('funnels.person.wrote');
  return (
    <li className={`history-item history-item--${entry.direction}`}>
      <span className="history-label">{funnelName ? `${funnelName} · ${label}` : label}</span>
      {shownText ? (
        <span className="history-text" data-testid="history-source">
          {shownText}
        </span>
      ) : entry.text ? (
        <span className="history-text">{entry.direction === 'out' ? visibleText(entry.text) : entry.text}</span>
      ) : null}
      <time className="history-time" dateTime={entry.created_at}>
        {time}
      </time>
    </li>
  );
}

/** The owner puts the person in a stage by hand (one whose stage was deleted, say). */
function MoveToStage({ person, stages }: { person: PersonDetail; stages: Stage[] }) {
  const { t } = useTranslation();
  const [stageId, setStageId] = useState<number | ''>('');
  const choices = stages.filter((s) => s.id !== person.stage_id);
  if (choices.length === 0) return null;

  async function move() {
    if (stageId === '') return;
    const result = await runChange(() => movePerson(person.id, stageId));
    if (!result.ok) return noticeFailure(result.failure);
    success(t('funnels.people.moved', { title: stages.find((s) => s.id === stageId)?.title ?? '' }));
    setStageId('');
  }

  return (
    <div className="row row--static move-row">
      <span className="row-body">
        <span className="row-description">{t('funnels.people.move')}</span>
        <span className="move-controls">
          <select
            className="field-input field-select"
            aria-label={t('funnels.people.move')}
            value={stageId}
            onChange={(event) => setStageId(event.target.value ? Number(event.target.value) : '')}
          >
            <option value="">{t('funnels.people.choose')}</option>
            {choices.map((stage) => (
              <option key={stage.id} value={stage.id}>
                {stages.indexOf(stage) + 1}. {stage.title}
              </option>
            ))}
          </select>
          <button type="button" className="button button--secondary button--small" disabled={stageId === ''} onClick={() => void move()}>
            {t('funnels.people.moveShort')}
          </button>
        </span>
        <span className="row-description">{t('funnels.people.moveHint')}</span>
      </span>
    </div>
  );
}
