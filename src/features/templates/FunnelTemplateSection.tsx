// On a funnel made from a template: which template and version it has, and when the publisher has
// published a newer one, what changed, with 'Update the funnel' (only while it has never run: it
// replaces the stages, messages, tags and letters) or 'Take a fresh copy' (a new draft funnel).
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Funnel } from '../../../contract/funnels';
import type { FunnelTemplate } from '../../../contract/templates';
import { runChange } from '@/api/action';
import { addTemplate, applyTemplateUpdate } from '@/api/templates';
import { noticeFailure, success } from '@/api/useApi';
import { RowContent, RowIcon, Section } from '@/ui/blocks';
import { ConfirmDialog } from '@/ui/Dialog';
import { CopyIcon } from '@/ui/glyphs';
import './templates.css';

export function FunnelTemplateSection({ funnel, template }: { funnel: Funnel; template: FunnelTemplate }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  async function apply() {
    setConfirming(false);
    setBusy(true);
    const result = await runChange(() => applyTemplateUpdate(funnel.id));
    setBusy(false);
    if (!result.ok) return noticeFailure(result.failure);
    success(t('templates.updated', { version: result.value.version }));
  }

  async function freshCopy() {
    setBusy(true);
    const result = await runChange(() => addTemplate(template.template_id));
    setBusy(false);
    if (!result.ok) return noticeFailure(result.failure);
    success(t('templates.added'));
    await navigate({ to: '/content/funnels/$funnelId/', params: { funnelId: String(result.value.id) } });
  }

  return (
    <Section
      title={t('templates.fromTemplate')}
      footer={template.update_available ? (template.can_apply ? t('templates.applyText') : t('templates.wasRunText')) : undefined}
    >
      <Link to="/templates/$templateId/" params={{ templateId: String(template.template_id) }} className="row" data-testid="funnel-template">
        <RowContent
          icon={<RowIcon tint="blue"><CopyIcon /></RowIcon>}
          title={template.name}
          description={
            template.update_available
              ? t('templates.updateAvailable', { version: template.version, latest: template.latest_version })
              : t('templates.upToDate', { version: template.version })
          }
        />
      </Link>
      {template.update_available ? (
        <>
          <ul className="template-changes" data-testid="template-changes">
            {template.changes.map((change) => (
              <li key={change}>{t(`templates.changes.${change}`)}</li>
            ))}
          </ul>
          {template.can_apply ? (
            <button type="button" className="row row--accent" onClick={() => setConfirming(true)} disabled={busy} data-testid="apply-template">
              <RowContent title={t('templates.apply')} chevron={false} />
            </button>
          ) : null}
          <button type="button" className="row row--accent" onClick={() => void freshCopy()} disabled={busy} data-testid="fresh-copy">
            <RowContent title={t('templates.freshCopy')} chevron={false} />
          </button>
        </>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title={t('templates.apply')}
          confirmLabel={t('templates.applyConfirm')}
          cancelLabel={t('funnels.common.cancel')}
          onConfirm={() => void apply()}
          onCancel={() => setConfirming(false)}
        >
          <p>{t('templates.applyQuestion')}</p>
        </ConfirmDialog>
      ) : null}
    </Section>
  );
}
