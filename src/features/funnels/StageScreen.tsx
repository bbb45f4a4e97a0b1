// /content/funnels/$funnelId/stages/$stageId/: one stage — its message (as a Telegram preview),
// its wait, where its buttons lead and what leads to it, the people now in it with their tags, and editing or deleting the stage.
import { Link } from '@tanstack/react-router';
import type { Funnel, Keyword, PeoplePage, Stage, Tag } from '../../../contract/funnels';
import { useTranslation } from 'react-i18next';
import { usePageHead } from '@/state/ui';
import { EmptyState, RowContent, RowIcon, Section } from '@/ui/blocks';
import { UsersIcon } from '@/ui/icons';
import { Screen } from '@/ui/Screen';
import { DeleteStageButton } from './DeleteStageButton';
import { StageWaitSection } from './StageWaitSection';
import { StageAskSection } from './StageAskSection';
import type { FunnelField } from '../../../contract/fields';
import { StagePaymentSection } from './StagePaymentSection';
import { EditIcon } from '@/ui/glyphs';
import { MessagePreview } from '@/ui/message-editor/MessagePreview';
import { personName, TagChip } from './parts';
import { BackLink } from '@/ui/BackLink';
import { StageBadge } from './StageIcon';
import { StageEntrances, StageExits } from './StageEdges';
import { useRefreshWhile } from '@/api/useApi';

/** The route loads the stage, its funnel, its people and the funnel's tags, stages, keywords and fields at once. */
export function StageScreen({
  stage: data,
  funnel,
  people,
  tags,
  stages,
  keywords,
  fields,
}: {
  stage: Stage;
  funnel: Funnel;
  people: PeoplePage;
  tags: Tag[];
  stages: Stage[];
  keywords: Keyword[];
  fields: FunnelField[];
}) {
  const { t } = useTranslation();
  usePageHead(data.title);
  // People arrive and move on while the bot runs.
  useRefreshWhile(funnel.state === 'running', 5_000);

  const params = { funnelId: String(funnel.id), stageId: String(data.id) };
  const back = <BackLink to="/content/funnels/$funnelId/" params={{ funnelId: params.funnelId }} label={funnel.name} />;
  const tagById = new Map(tags.map((tag) => [tag.id, tag]));
  const stageTag = data.tag_id ? tagById.get(data.tag_id) : undefined;
  const hasMessage = Boolean(data.message.text.trim() || data.message.media);

  return (
    <Screen>
      <header className="screen-header stage-header">
        {back}
        <div className="stage-header-row">
          <StageBadge icon={data.icon} color={data.color} size="large" />
          <div className="stage-header-body">
            <h1 className="screen-title">{data.title}</h1>
            <p className="screen-subtitle" data-testid="stage-people-count">
              {t('funnels.list.people', { count: data.people_count })}
            </p>
          </div>
        </div>
        {stageTag ? (
          <p className="stage-header-tag">
            {t('funnels.stage.addsTag')} <TagChip tag={stageTag} />
          </p>
        ) : null}
      </header>

      <section className="section-block">
        <h2 className="section-title">{t('funnels.stage.message')}</h2>
        {hasMessage ? (
          <MessagePreview
            text={data.message.text}
            media={data.message.media ? { kind: data.message.media.kind, id: data.message.media.id, src: null } : null}
            buttons={data.message.buttons}
            nextButton={data.message.next_button}
            choices={data.message.choices}
            botName={funnel.name}
          />
        ) : (
          <p className="section-footer">{t('funnels.stage.noMessage')}</p>
        )}
        <StageExits stage={data} stages={stages} keywords={keywords} />
        <Link to="/content/funnels/$funnelId/stages/$stageId/message/" params={params} className="button button--secondary">
          <EditIcon />
          {hasMessage ? t('funnels.stage.editMessage') : t('funnels.stage.writeMessage')}
        </Link>
      </section>

      <StageAskSection stage={data} fields={fields} />

      <StageWaitSection stage={data} stages={stages} />

      <StagePaymentSection stage={data} stages={stages} />

      <StageEntrances stage={data} stages={stages} keywords={keywords} />

      <section className="section-block">
        <h2 className="section-title">{t('funnels.stage.people')}</h2>
        {people.results.length === 0 ? (
          <div className="section">
            <EmptyState icon={<UsersIcon />} title={t('funnels.stage.noPeopleTitle')}>
              <p>{t('funnels.stage.noPeopleText')}</p>
            </EmptyState>
          </div>
        ) : (
          <>
            <div className="section">
              {people.results.map((person) => (
                <Link key={person.id} to="/content/people/$personId/" params={{ personId: String(person.id) }} search={{ from: 'stage' }} className="row" data-testid="person-row">
                  <RowContent
                    icon={<span className="person-avatar" aria-hidden="true">{personName(person).charAt(0).toUpperCase()}</span>}
                    title={personName(person)}
                    description={
                      <span className="person-row-meta">
                        {person.username ? <span>@{person.username}</span> : null}
                        {person.blocked ? <span className="person-blocked">{t('funnels.person.blocked')}</span> : null}
                        {person.tag_ids.map((id) => {
                          const tag = tagById.get(id);
                          return tag ? <TagChip key={id} tag={tag} /> : null;
                        })}
                      </span>
                    }
                  />
                </Link>
              ))}
            </div>
            {people.count > people.results.length ? (
              <p className="section-footer">{t('funnels.stage.morePeople', { count: people.count - people.results.length })}</p>
            ) : null}
          </>
        )}
      </section>

      <Section>
        <Link to="/content/funnels/$funnelId/stages/$stageId/edit/" params={params} className="row">
          <RowContent icon={<RowIcon tint="blue"><EditIcon /></RowIcon>} title={t('funnels.stage.edit')} />
        </Link>
      </Section>
      <DeleteStageButton stage={data} />
    </Screen>
  );
}
