// /content/archive/: archived funnels (their bots stopped) — 'Return to funnels', or 'Delete'
// for good after 'Are you sure you want to remove the funnel?'.
import './funnels.css';
import { useState } from 'react';
import type { Funnel } from '../../../contract/funnels';
import { ROUTES } from '../../../contract/routes';
import { deleteFunnel, restoreFunnel } from '@/api/funnels';
import { useTranslation } from 'react-i18next';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState } from '@/ui/blocks';
import { Button } from '@/ui/form';
import { BotIcon } from '@/ui/icons';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { ConfirmDialog } from '@/ui/Dialog';
import { ArchiveIcon, RestoreIcon, TrashIcon } from '@/ui/glyphs';
import { runChange } from '@/api/action';
import { noticeFailure, success } from '@/api/useApi';
import { useBotLabel } from '@/ui/botLabel';

/** `funnels`: the archived ones, loaded by the route. */
export function ArchiveScreen({ funnels }: { funnels: Funnel[] }) {
  const { t } = useTranslation();
  const botLabel = useBotLabel();
  usePageHead(t('funnels.archive.title'));
  const [deleting, setDeleting] = useState<Funnel | null>(null);

  async function restore(funnel: Funnel) {
    const result = await runChange(() => restoreFunnel(funnel.id));
    if (!result.ok) return noticeFailure(result.failure);
    success(t('funnels.archive.restored', { name: funnel.name }));
  }

  async function remove(funnel: Funnel) {
    setDeleting(null);
    const result = await runChange(() => deleteFunnel(funnel.id));
    if (!result.ok) return noticeFailure(result.failure);
    success(t('funnels.archive.deleted'));
  }

  return (
    <Screen>
      <ScreenHeader title={t('funnels.archive.title')} subtitle={t('funnels.archive.subtitle')} back={<BackLink to={ROUTES.funnels} label={t('funnels.list.title')} />} />
      {funnels.length === 0 ? (
        <EmptyState icon={<ArchiveIcon />} title={t('funnels.archive.emptyTitle')}>
          <p>{t('funnels.archive.emptyText')}</p>
        </EmptyState>
      ) : (
        <div className="funnel-cards">
          {funnels.map((funnel) => (
            <article key={funnel.id} className="funnel-card" data-testid="archived-funnel" aria-label={funnel.name}>
              <div className="funnel-card-main">
                <span className="funnel-avatar funnel-avatar--archived" aria-hidden="true">
                  <BotIcon />
                </span>
                <span className="funnel-card-body">
                  <span className="funnel-card-name">{funnel.name}</span>
                  <span className="funnel-card-bot">
                    {botLabel(funnel)} · {t('funnels.list.people', { count: funnel.people_count })}
                  </span>
                </span>
              </div>
              <div className="funnel-card-actions">
                <Button variant="secondary" className="button--small" onClick={() => void restore(funnel)}>
                  <RestoreIcon />
                  {t('funnels.archive.restore')}
                </Button>
                <Button variant="destructive" className="button--small" onClick={() => setDeleting(funnel)}>
                  <TrashIcon />
                  {t('funnels.archive.delete')}
                </Button>
              </div>
            </article>
          ))}
        </div>
      )}
      {deleting ? (
        <ConfirmDialog
          title={t('funnels.archive.deleteConfirmTitle')}
          confirmLabel={t('funnels.archive.delete')}
          cancelLabel={t('funnels.common.cancel')}
          destructive
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        >
          <p>
            <strong>{deleting.name}</strong> ({botLabel(deleting)})
          </p>
          <p className="sheet-warning">{t('funnels.archive.deleteWarning')}</p>
        </ConfirmDialog>
      ) : null}
    </Screen>
  );
}
