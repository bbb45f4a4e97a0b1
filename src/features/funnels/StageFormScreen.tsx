// /content/funnels/$funnelId/stages/new/ and …/stages/$stageId/edit/: a stage's title, icon,
// colour and the tag everyone who reaches it gets; editing also offers to delete the stage.
import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { PALETTE, STAGE_TITLE_MAX, type Funnel, type Stage, type StageIcon, type Tag } from '../../../contract/funnels';
import { createStage, updateStage } from '@/api/funnels';
import { useTranslation } from 'react-i18next';
import { usePageHead } from '@/state/ui';
import { Button, FormAlert, TextField } from '@/ui/form';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { DeleteStageButton } from './DeleteStageButton';
import { ColorPicker, IconPicker } from './parts';
import { BackLink } from '@/ui/BackLink';
import { StageBadge } from './StageIcon';
import { runChange } from '@/api/action';
import { describeFailure, success, type TranslatedFailure } from '@/api/useApi';

const NO_ERRORS: TranslatedFailure = { fields: {}, messages: [] };

/** Where a new stage may go: its funnel (running or not) and the stages there are. */
export interface StagePlace {
  funnel: Funnel;
  stages: Stage[];
}

/** `stage`: the one being edited (null for a new one); the route loads it with the funnel's tags. */
export function StageFormScreen({ funnelId, stage, tags, place = null }: { funnelId: number; stage: Stage | null; tags: Tag[]; place?: StagePlace | null }) {
  const { t } = useTranslation();
  const editing = stage !== null;
  const stageId = stage?.id;
  const title = editing ? t('funnels.stageForm.editTitle') : t('funnels.stageForm.addTitle');
  usePageHead(title);
  const back = editing ? (
    <BackLink to="/content/funnels/$funnelId/stages/$stageId/" params={{ funnelId: String(funnelId), stageId: String(stageId) }} label={t('common.back')} />
  ) : (
    <BackLink to="/content/funnels/$funnelId/" params={{ funnelId: String(funnelId) }} label={t('common.back')} />
  );

  return (
    <Screen>
      <ScreenHeader title={title} back={back} />
      <StageForm key={stage?.id ?? 'new'} funnelId={funnelId} stage={stage} tags={tags} place={place} />
    </Screen>
  );
}

function StageForm({ funnelId, stage, tags, place }: { funnelId: number; stage: Stage | null; tags: Tag[]; place: StagePlace | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const tagFieldId = useId();
  const placeFieldId = useId();
  /** Index the new stage takes (0 = first); the end by default. */
  const [position, setPosition] = useState<number>(place?.stages.length ?? 0);
  const [title, setTitle] = useState(stage?.title ?? '');
  const [icon, setIcon] = useState<StageIcon>(stage?.icon ?? 'flag');
  const [color, setColor] = useState<string>(stage?.color ?? PALETTE[0]);
  const [tagId, setTagId] = useState<number | null>(stage?.tag_id ?? null);
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);
  const funnelParam = String(funnelId);

  useEffect(() => {
    if (tagId !== null && tags.length > 0 && !tags.some((tag) => tag.id === tagId)) setTagId(null);
  }, [tags, tagId]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!title.trim()) return setErrors({ fields: { title: [t('funnels.stageForm.titleRequired')] }, messages: [] });
    const body = { title: title.trim(), icon, color, tag_id: tagId };
    const atEnd = !place || position >= place.stages.length;
    const result = await runChange(() => (stage ? updateStage(stage.id, body) : createStage(funnelId, atEnd ? body : { ...body, position })));
    if (!result.ok) return setErrors(describeFailure(result.failure, ['title', 'icon', 'color', 'tag_id', 'position']));
    success(stage ? t('funnels.stageForm.saved') : t('funnels.stageForm.added'));
    if (stage) await navigate({ to: '/content/funnels/$funnelId/stages/$stageId/', params: { funnelId: funnelParam, stageId: String(stage.id) }, replace: true });
    // A new stage needs its message next.
    else await navigate({ to: '/content/funnels/$funnelId/stages/$stageId/message/', params: { funnelId: funnelParam, stageId: String(result.value.id) }, replace: true });
  }

  return (
    <>
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        <div className="stage-form-preview" aria-hidden="true">
          <StageBadge icon={icon} color={color} size="large" />
          <span className="stage-form-preview-title">{title.trim() || t('funnels.stageForm.titlePlaceholder')}</span>
        </div>
        <FormAlert messages={errors.messages} />
        <TextField
          label={t('funnels.stageForm.titleLabel')}
          name="title"
          value={title}
          maxLength={STAGE_TITLE_MAX}
          placeholder={t('funnels.stageForm.titlePlaceholder')}
          onChange={(event) => setTitle(event.target.value)}
          errors={errors.fields.title}
          autoComplete="off"
        />
        <IconPicker label={t('funnels.stageForm.icon')} value={icon} color={color} onChange={setIcon} />
        <ColorPicker label={t('funnels.stageForm.color')} value={color} onChange={setColor} />
        <div className="field">
          <label className="field-label" htmlFor={tagFieldId}>
            {t('funnels.stageForm.tag')}
          </label>
          <select
            id={tagFieldId}
            className="field-input field-select"
            value={tagId ?? ''}
            onChange={(event) => setTagId(event.target.value ? Number(event.target.value) : null)}
            aria-describedby={`${tagFieldId}-hint`}
          >
            <option value="">{t('funnels.stageForm.noTag')}</option>
            {tags.map((tag) => (
              <option key={tag.id} value={tag.id}>
                {tag.title}
              </option>
            ))}
          </select>
          <p className="field-hint" id={`${tagFieldId}-hint`}>
            {errors.fields.tag_id?.join(' ') ?? t('funnels.stageForm.tagHint')}{' '}
            <Link to="/content/funnels/$funnelId/tags/" params={{ funnelId: funnelParam }} className="link">
              {t('funnels.stageForm.manageTags')}
            </Link>
          </p>
        </div>
        {place && place.stages.length > 0 ? (
          <div className="field">
            <label className="field-label" htmlFor={placeFieldId}>
              {t('funnels.stageForm.place')}
            </label>
            <select
              id={placeFieldId}
              className="field-input field-select"
              value={position}
              disabled={place.funnel.stage_order_locked}
              onChange={(event) => setPosition(Number(event.target.value))}
              aria-describedby={`${placeFieldId}-hint`}
            >
              <option value={0}>{t('funnels.stageForm.placeFirst')}</option>
              {place.stages.slice(0, -1).map((other, index) => (
                <option key={other.id} value={index + 1}>
                  {t('funnels.stageForm.placeAfter', { title: other.title })}
                </option>
              ))}
              <option value={place.stages.length}>{t('funnels.stageForm.placeEnd')}</option>
            </select>
            {place.funnel.stage_order_locked ? (
              <p className="field-hint" id={`${placeFieldId}-hint`}>
                {t('funnels.stageForm.placeLocked')}
              </p>
            ) : errors.fields.position ? (
              <p className="field-error" id={`${placeFieldId}-hint`}>
                {errors.fields.position.join(' ')}
              </p>
            ) : place.funnel.was_run && place.funnel.people_count > 0 && position < place.stages.length ? (
              <p className="field-hint field-hint--warning" id={`${placeFieldId}-hint`} data-testid="place-warning">
                {t('funnels.stageForm.placeWarning')}
              </p>
            ) : null}
          </div>
        ) : null}
        <Button type="submit">{stage ? t('funnels.common.save') : t('funnels.stageForm.add')}</Button>
      </form>
      {stage ? <DeleteStageButton stage={stage} /> : null}
    </>
  );
}
