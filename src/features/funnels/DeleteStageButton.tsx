// Deleting a stage, from its screen or its edit form: the button, the confirmation that says how
// many people are in it, and the way back to the funnel afterwards.
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { Stage } from '../../../contract/funnels';
import { deleteStage } from '@/api/funnels';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/form';
import { ConfirmDialog } from '@/ui/Dialog';
import { runChange } from '@/api/action';
import { noticeFailure, success } from '@/api/useApi';

export function DeleteStageButton({ stage }: { stage: Pick<Stage, 'id' | 'funnel_id' | 'title' | 'people_count'> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);

  async function remove() {
    setDeleting(false);
    const result = await runChange(() => deleteStage(stage.id));
    if (!result.ok) return noticeFailure(result.failure);
    success(t('funnels.stageForm.deleted'));
    await navigate({ to: '/content/funnels/$funnelId/', params: { funnelId: String(stage.funnel_id) }, replace: true });
  }

  return (
    <>
      <Button variant="destructive" onClick={() => setDeleting(true)}>
        {t('funnels.stageForm.delete')}
      </Button>
      {deleting ? (
        <ConfirmDialog
          title={t('funnels.stageForm.deleteConfirmTitle')}
          confirmLabel={t('funnels.stageForm.delete')}
          cancelLabel={t('funnels.common.cancel')}
          destructive
          onConfirm={() => void remove()}
          onCancel={() => setDeleting(false)}
        >
          <p>{t('funnels.stageForm.deleteConfirmText', { title: stage.title, count: stage.people_count })}</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
