// /content/templates/: the templates 'for affiliates' — cover, name, description and stage count
// of each; one opens its preview. Admins also see their unpublished ones and the way to publish a
// funnel as a new template.
import { Link } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { ROUTES } from '../../../contract/routes';
import type { TemplateSummary } from '../../../contract/templates';
import { publicFile } from '@/api/templates';
import { userAtom } from '@/state/auth';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState } from '@/ui/blocks';
import { FunnelIcon } from '@/ui/brandIcon';
import { PlusIcon } from '@/ui/glyphs';
import { Screen, ScreenHeader } from '@/ui/Screen';
import './templates.css';

export function TemplateCover({ template, large = false }: { template: Pick<TemplateSummary, 'cover_url' | 'name'>; large?: boolean }) {
  return (
    <span className={`template-cover${large ? ' template-cover--large' : ''}`} aria-hidden="true">
      {template.cover_url ? <img src={publicFile(template.cover_url)} alt="" /> : <FunnelIcon />}
    </span>
  );
}

export function TemplatesScreen({ templates }: { templates: TemplateSummary[] }) {
  const { t } = useTranslation();
  usePageHead(t('templates.title'), t('templates.description'));
  const isAdmin = useAtomValue(userAtom)?.role === 'admin';

  return (
    <Screen>
      <ScreenHeader title={t('templates.title')} subtitle={t('templates.subtitle')} back={<BackLink to={ROUTES.panel} label={t('common.back')} />} />
      {isAdmin ? (
        <Link to={ROUTES.newTemplate} className="button button--primary" data-testid="new-template">
          <PlusIcon />
          {t('templates.create')}
        </Link>
      ) : null}
      {templates.length === 0 ? (
        <EmptyState icon={<FunnelIcon />} title={t('templates.emptyTitle')}>
          <p>{t('templates.emptyText')}</p>
        </EmptyState>
      ) : (
        <ul className="template-list">
          {templates.map((template) => (
            <li key={template.id}>
              <Link to="/templates/$templateId/" params={{ templateId: String(template.id) }} className="template-card" data-testid="template-card">
                <TemplateCover template={template} />
                <span className="template-card-body">
                  <span className="template-card-name">{template.name}</span>
                  {template.description ? <span className="template-card-text">{template.description}</span> : null}
                  <span className="template-card-meta">
                    {t('templates.stages', { count: template.stage_count })}
                    {template.mine ? ` · ${t('templates.version', { version: template.version })}` : ''}
                    {template.published ? '' : ` · ${t('templates.unpublished')}`}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Screen>
  );
}
