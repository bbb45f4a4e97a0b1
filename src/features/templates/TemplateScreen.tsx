// /templates/$templateId/: a template's preview — cover, description, and each stage's message as
// the chat will show it, the tags and the letters — with 'Add to my funnels' (a draft funnel that
// opens at 'Connect a bot'). Its publisher (an admin) also publishes a new version from the source
// funnel, changes the cover, unpublishes or publishes it again, and sees its figures.
import { Link, useNavigate } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import { TEMPLATE_COVER_TYPES, type Template, type TemplateStats } from '../../../contract/templates';
import { runChange } from '@/api/action';
import { addTemplate, publicFile, publishVersion, updateTemplate, uploadCover } from '@/api/templates';
import { noticeFailure, success } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { RowContent, RowIcon, Section, Stat, StatGrid } from '@/ui/blocks';
import { ConfirmDialog } from '@/ui/Dialog';
import { Button } from '@/ui/form';
import { CopyIcon, EditIcon, PlusIcon } from '@/ui/glyphs';
import { MessagePreview } from '@/ui/message-editor/MessagePreview';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { TemplateCover } from './TemplatesScreen';
import './templates.css';

export function TemplateScreen({ template, stats }: { template: Template; stats: TemplateStats | null }) {
  const { t } = useTranslation();
  usePageHead(template.name, template.description);
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [confirm, setConfirm] = useState<'version' | 'unpublish' | null>(null);
  const coverInput = useRef<HTMLInputElement>(null);

  async function add() {
    setBusy(true);
    const result = await runChange(() => addTemplate(template.id));
    setBusy(false);
    if (!result.ok) return noticeFailure(result.failure);
    success(t('templates.added'));
    await navigate({ to: '/content/funnels/$funnelId/token/', params: { funnelId: String(result.value.id) } });
  }

  async function act(action: () => Promise<unknown>, done: string) {
    setConfirm(null);
    setBusy(true);
    const result = await runChange(action, { notice: done });
    setBusy(false);
    if (!result.ok) return noticeFailure(result.failure);
  }

  return (
    <Screen>
      <ScreenHeader
        title={template.name}
        subtitle={`${t('templates.stages', { count: template.stage_count })} · ${t('templates.version', { version: template.version })}`}
        back={<BackLink to={ROUTES.templates} label={t('templates.title')} />}
      />
      <TemplateCover template={template} large />
      {template.description ? <p className="section-footer template-description">{template.description}</p> : null}
      {template.published ? null : <p className="section-footer section-footer--warning">{t('templates.unpublishedText')}</p>}

      <Button onClick={() => void add()} disabled={busy || !template.published} data-testid="add-template">
        <PlusIcon />
        {t('templates.add')}
      </Button>
      <p className="section-footer">{t('templates.addText')}</p>

      <section className="section-block" aria-label={t('templates.preview')}>
        <h2 className="section-title">{t('templates.preview')}</h2>
        <div className="section">
          {template.stages.map((stage, index) => (
            <div key={index} className="template-stage" data-testid="template-stage">
              <span className="template-stage-title" style={{ ['--stage-color' as string]: stage.color }}>
                <span className="template-stage-number">{index + 1}</span>
                {stage.title}
                {stage.tag ? <span className="template-card-meta">#{stage.tag}</span> : null}
              </span>
              <MessagePreview
                text={stage.message.text}
                media={stage.message.media ? { kind: stage.message.media.kind, id: stage.message.media.id, src: publicFile(stage.message.media.url) } : null}
                buttons={stage.message.buttons}
                nextButton={stage.message.next_button}
                botName={template.name}
              />
            </div>
          ))}
        </div>
      </section>

      {template.series.length > 0 ? (
        <Section title={t('templates.letters')}>
          {template.series.map((series, index) => (
            <div key={index} className="row">
              <RowContent title={series.name} description={series.letters.map((l) => l.name).join(' · ') || t('templates.noLetters')} chevron={false} />
            </div>
          ))}
        </Section>
      ) : null}
      {template.tags.length > 0 ? <p className="section-footer">{t('templates.tags', { tags: template.tags.map((tag) => tag.title).join(', ') })}</p> : null}

      {template.mine ? (
        <>
          {stats ? <TemplateFigures stats={stats} /> : null}
          <Section title={t('templates.publisher')} footer={t('templates.publisherText')}>
            {template.source_funnel_id ? (
              <Link to="/content/funnels/$funnelId/" params={{ funnelId: String(template.source_funnel_id) }} className="row">
                <RowContent icon={<RowIcon tint="blue"><EditIcon /></RowIcon>} title={t('templates.openSource')} description={t('templates.openSourceText')} />
              </Link>
            ) : null}
            {template.source_funnel_id ? (
              <button type="button" className="row" onClick={() => setConfirm('version')} disabled={busy} data-testid="publish-version">
                <RowContent icon={<RowIcon tint="green"><CopyIcon /></RowIcon>} title={t('templates.publishVersion')} description={t('templates.publishVersionText')} chevron={false} />
              </button>
            ) : null}
            <button type="button" className="row" onClick={() => coverInput.current?.click()} disabled={busy} data-testid="cover">
              <RowContent icon={<RowIcon tint="orange"><EditIcon /></RowIcon>} title={t('templates.cover')} description={t('templates.coverText')} chevron={false} />
            </button>
            <button
              type="button"
              className={`row${template.published ? ' row--destructive' : ''}`}
              onClick={() => (template.published ? setConfirm('unpublish') : void act(() => updateTemplate(template.id, { published: true }), t('templates.published')))}
              disabled={busy}
              data-testid="toggle-published"
            >
              <RowContent title={template.published ? t('templates.unpublish') : t('templates.publish')} chevron={false} />
            </button>
          </Section>
          <input
            ref={coverInput}
            type="file"
            hidden
            accept={TEMPLATE_COVER_TYPES.join(',')}
            data-testid="cover-input"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void act(() => uploadCover(template.id, file), t('templates.coverSaved'));
            }}
          />
        </>
      ) : null}

      {confirm === 'version' ? (
        <ConfirmDialog
          title={t('templates.publishVersion')}
          confirmLabel={t('templates.publishVersionConfirm')}
          cancelLabel={t('funnels.common.cancel')}
          onConfirm={() => void act(() => publishVersion(template.id), t('templates.versionPublished', { version: template.version + 1 }))}
          onCancel={() => setConfirm(null)}
        >
          <p>{t('templates.publishVersionQuestion')}</p>
        </ConfirmDialog>
      ) : null}
      {confirm === 'unpublish' ? (
        <ConfirmDialog
          title={t('templates.unpublish')}
          confirmLabel={t('templates.unpublish')}
          cancelLabel={t('funnels.common.cancel')}
          destructive
          onConfirm={() => void act(() => updateTemplate(template.id, { published: false }), t('templates.unpublishedDone'))}
          onCancel={() => setConfirm(null)}
        >
          <p>{t('templates.unpublishQuestion')}</p>
        </ConfirmDialog>
      ) : null}
    </Screen>
  );
}

/** Added, connected, running and people reached, and a small chart of the last 30 days. */
function TemplateFigures({ stats }: { stats: TemplateStats }) {
  const { t } = useTranslation();
  const most = Math.max(1, ...stats.days.map((d) => Math.max(d.added, d.people)));
  const width = 300;
  const height = 80;
  const slot = width / stats.days.length;
  const bar = Math.max(1, slot / 2 - 1);
  return (
    <section className="section-block" aria-label={t('templates.figures')}>
      <h2 className="section-title">{t('templates.figures')}</h2>
      <div className="section">
        <StatGrid>
          <Stat label={t('templates.figureAdded')} value={stats.added} testId="template-added" />
          <Stat label={t('templates.figureConnected')} value={stats.connected} testId="template-connected" />
          <Stat label={t('templates.figureRunning')} value={stats.running} testId="template-running" />
          <Stat label={t('templates.figurePeople')} value={stats.people} testId="template-people" />
        </StatGrid>
        <svg className="template-chart" viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" role="img" aria-label={t('templates.chartLabel')}>
          {stats.days.map((day, index) => (
            <g key={day.date}>
              <title>{`${day.date}: ${t('templates.figureAdded')} ${day.added}, ${t('templates.figurePeople')} ${day.people}`}</title>
              <rect x={index * slot} y={height - (day.added / most) * height} width={bar} height={(day.added / most) * height} />
              <rect className="template-chart-people" x={index * slot + bar + 1} y={height - (day.people / most) * height} width={bar} height={(day.people / most) * height} />
            </g>
          ))}
        </svg>
        <p className="template-chart-legend">
          <span className="template-chart-key">{t('templates.figureAdded')}</span>
          <span className="template-chart-key template-chart-people">{t('templates.figurePeople')}</span>
          <span>{t('templates.chartDays')}</span>
        </p>
      </div>
    </section>
  );
}
