// /content/templates/new/ (admins): 'Create a funnel template for your affiliates' — one of the
// admin's funnels, a name and a description. Publishing takes a snapshot of the funnel's stages,
// messages, tags and letters; later edits of the funnel go out only as a new version.
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Funnel } from '../../../contract/funnels';
import { ROUTES } from '../../../contract/routes';
import { TEMPLATE_DESCRIPTION_MAX, TEMPLATE_NAME_MAX } from '../../../contract/templates';
import { runChange } from '@/api/action';
import { createTemplate } from '@/api/templates';
import { describeFailure, success, type TranslatedFailure } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { useBotLabel } from '@/ui/botLabel';
import { EmptyState } from '@/ui/blocks';
import { FunnelIcon } from '@/ui/brandIcon';
import { Button, FormAlert, TextField } from '@/ui/form';
import { Screen, ScreenHeader } from '@/ui/Screen';
import './templates.css';

const NO_ERRORS: TranslatedFailure = { fields: {}, messages: [] };

export function NewTemplateScreen({ funnels }: { funnels: Funnel[] }) {
  const { t } = useTranslation();
  usePageHead(t('templates.create'));
  const navigate = useNavigate();
  const botLabel = useBotLabel();
  const withStages = funnels.filter((f) => f.stage_count > 0);
  const [funnelId, setFunnelId] = useState<number | null>(withStages[0]?.id ?? null);
  const [name, setName] = useState(withStages[0]?.name ?? '');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (funnelId === null) return;
    if (!name.trim()) return setErrors({ fields: { name: [t('funnels.serverErrors.blank')] }, messages: [] });
    setBusy(true);
    const result = await runChange(() => createTemplate({ funnel_id: funnelId, name: name.trim(), description: description.trim() }));
    setBusy(false);
    if (!result.ok) return setErrors(describeFailure(result.failure, ['funnel_id', 'name', 'description']));
    success(t('templates.created'));
    await navigate({ to: '/templates/$templateId/', params: { templateId: String(result.value.id) }, replace: true });
  }

  return (
    <Screen>
      <ScreenHeader title={t('templates.create')} subtitle={t('templates.createText')} back={<BackLink to={ROUTES.templates} label={t('templates.title')} />} />
      {withStages.length === 0 ? (
        <EmptyState icon={<FunnelIcon />} title={t('templates.noFunnelsTitle')}>
          <p>{t('templates.noFunnelsText')}</p>
        </EmptyState>
      ) : (
        <form className="form" onSubmit={(event) => void submit(event)} noValidate>
          <FormAlert messages={errors.messages} />
          <label className="field">
            <span className="field-label">{t('templates.funnel')}</span>
            <select
              className="field-input"
              value={funnelId ?? ''}
              data-testid="template-funnel"
              onChange={(event) => {
                const picked = withStages.find((f) => f.id === Number(event.target.value));
                setFunnelId(picked?.id ?? null);
                if (picked && (!name.trim() || withStages.some((f) => f.name === name))) setName(picked.name);
              }}
            >
              {withStages.map((f) => (
                <option key={f.id} value={f.id}>
                  {`${f.name} (${botLabel(f)}, ${t('templates.stages', { count: f.stage_count })})`}
                </option>
              ))}
            </select>
            {errors.fields.funnel_id ? <span className="field-error" role="alert">{errors.fields.funnel_id.join(' ')}</span> : null}
          </label>
          <TextField label={t('templates.name')} name="name" value={name} maxLength={TEMPLATE_NAME_MAX} onChange={(e) => setName(e.target.value)} errors={errors.fields.name} />
          <label className="field">
            <span className="field-label">{t('templates.descriptionLabel')}</span>
            <textarea
              className="field-input"
              name="description"
              rows={4}
              value={description}
              maxLength={TEMPLATE_DESCRIPTION_MAX}
              placeholder={t('templates.descriptionPlaceholder')}
              onChange={(e) => setDescription(e.target.value)}
            />
          </label>
          <p className="section-footer">{t('templates.snapshotText')}</p>
          <Button type="submit" disabled={busy} data-testid="publish-template">
            {t('templates.publishNew')}
          </Button>
        </form>
      )}
    </Screen>
  );
}
