// Deleting a stage, from its screen or its edit form: the button, the confirmation that says how
// many people are in it and which choice buttons and waits (they break: shown red until another
// stage is chosen) and keywords (deleted with it) lead to it, and the way back to the funnel afterwards.
import { useNavigate, useRouter } from '@tanstack/react-router';
import { useState } from 'react';
import type { Stage } from '../../../contract/funnels';
import { deleteStage, listKeywords, listStages } from '@/api/funnels';
import { useTranslation } from 'react-i18next';
import { Button } from '@/ui/form';
import { ConfirmDialog } from '@/ui/Dialog';
import { runRead } from '@/api/action';
import { noticeFailure, success } from '@/api/useApi';

export function DeleteStageButton({ stage }: { stage: Pick<Stage, 'id' | 'funnel_id' | 'title' | 'people_count'> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const router = useRouter();
  const [deleting, setDeleting] = useState(false);
  /** What leads to the stage: asked for when the owner presses Delete. */
  const [leading, setLeading] = useState<{ buttons: string[]; keywords: string[]; waits: string[]; payments: string[] }>({ buttons: [], keywords: [], waits: [], payments: [] });

  async function ask() {
    const result = await runRead(() => Promise.all([listStages(stage.funnel_id), listKeywords(stage.funnel_id)]));
    if (result.ok) {
      const [stages, keywords] = result.value;
      setLeading({
        buttons: stages.flatMap((other) => other.message.choices.filter((c) => c.stage_id === stage.id).map((c) => t('funnels.stageForm.breakingButton', { text: c.text, stage: other.title }))),
        keywords: keywords.filter((k) => k.stage_id === stage.id).map((k) => t('funnels.stageForm.breakingKeyword', { phrase: k.phrase })),
        waits: stages.filter((other) => other.id !== stage.id && other.wait?.to_stage_id === stage.id).map((other) => `“${other.title}”`),
        payments: stages
          .filter((other) => other.payment && (other.payment.paid_stage_id === stage.id || other.payment.refund_stage_id === stage.id))
          .map((other) => t('funnels.payments.deleteLeadsHere', { stage: other.title })),
      });
    }
    setDeleting(true);
  }

  async function remove() {
    // The confirmation stays until the screen is left: closed first, the pointer that pressed it
    // lands on the screen's links to the stage, which the router preloads (a 404 once it is gone).
    // Not runChange: its reload would ask again for the stage this screen shows, now gone.
    const result = await runRead(() => deleteStage(stage.id));
    if (!result.ok) {
      setDeleting(false);
      return noticeFailure(result.failure);
    }
    success(t('funnels.stageForm.deleted'));
    void router.invalidate({ filter: (match) => (match.params as { stageId?: string }).stageId !== String(stage.id) });
    await navigate({ to: '/content/funnels/$funnelId/', params: { funnelId: String(stage.funnel_id) }, replace: true });
  }

  return (
    <>
      <Button variant="destructive" onClick={() => void ask()}>
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
          {leading.buttons.length > 0 ? (
            <p data-testid="delete-breaks-buttons">{t('funnels.stageForm.deleteBreaksButtons', { buttons: leading.buttons.join(', ') })}</p>
          ) : null}
          {leading.waits.length > 0 ? <p data-testid="delete-breaks-waits">{t('funnels.stageForm.deleteBreaksWaits', { stages: leading.waits.join(', ') })}</p> : null}
          {leading.payments.map((line) => (
            <p key={line} data-testid="delete-breaks-payment">
              {line}
            </p>
          ))}
          {leading.keywords.length > 0 ? (
            <p data-testid="delete-breaks-keywords">{t('funnels.stageForm.deleteBreaksKeywords', { keywords: leading.keywords.join(', ') })}</p>
          ) : null}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
