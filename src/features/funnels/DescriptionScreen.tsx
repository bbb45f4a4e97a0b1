// /content/funnels/$funnelId/description/: the bot's description (shown in an empty chat) and
// short description (on its profile), loaded from Telegram, edited within Telegram's limits.
import './funnels.css';
import { useId, useState, type FormEvent } from 'react';
import { BOT_DESCRIPTION_MAX, BOT_SHORT_DESCRIPTION_MAX, type BotDescription } from '../../../contract/funnels';
import { getDescription, setDescription } from '@/api/funnels';
import { useTranslation } from 'react-i18next';
import { usePageHead } from '@/state/ui';
import { Button, FormAlert } from '@/ui/form';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { BackLink } from '@/ui/BackLink';
import { runChange, runRead } from '@/api/action';
import type { ApiFailure } from '@/api/failure';
import { describeFailure, success, type TranslatedFailure } from '@/api/useApi';

const NO_ERRORS: TranslatedFailure = { fields: {}, messages: [] };

function CountedArea({ label, value, max, rows, onChange, errors }: { label: string; value: string; max: number; rows: number; onChange: (value: string) => void; errors?: string[] }) {
  const id = useId();
  const over = value.length > max;
  return (
    <div className={`field${errors || over ? ' field--invalid' : ''}`}>
      <label className="field-label field-label--counted" htmlFor={id}>
        <span>{label}</span>
        <span className={`editor-count${over ? ' editor-count--over' : ''}`}>
          {value.length} / {max}
        </span>
      </label>
      <textarea id={id} className="field-input field-textarea" rows={rows} value={value} maxLength={max} onChange={(event) => onChange(event.target.value)} />
      {errors ? <p className="field-error">{errors.join(' ')}</p> : null}
    </div>
  );
}

/** What the route loaded from Telegram: the description, or why it could not (Telegram not answering). */
export interface LoadedDescription {
  value: BotDescription | null;
  failure: ApiFailure | null;
}

export function DescriptionScreen({ funnelId, loaded }: { funnelId: number; loaded: LoadedDescription }) {
  const { t } = useTranslation();
  usePageHead(t('funnels.description.title'));
  // Telegram not answering still leaves the form to write in, with the reason above it.
  const [value, setValue] = useState<BotDescription | null>(loaded.value ?? (loaded.failure ? { description: '', short_description: '' } : null));
  const [errors, setErrors] = useState<TranslatedFailure>(() => (loaded.failure ? describeFailure(loaded.failure) : NO_ERRORS));

  async function load() {
    setErrors(NO_ERRORS);
    const result = await runRead(() => getDescription(funnelId));
    if (result.ok) {
      setValue(result.value);
      return true;
    }
    setErrors(describeFailure(result.failure));
    setValue((current) => current ?? { description: '', short_description: '' });
    return false;
  }

  async function update(event: FormEvent) {
    event.preventDefault();
    if (!value) return;
    const result = await runChange(() => setDescription(funnelId, value));
    if (!result.ok) return setErrors(describeFailure(result.failure, ['description', 'short_description']));
    setErrors(NO_ERRORS);
    setValue(result.value);
    success(t('funnels.description.updated'));
  }

  return (
    <Screen>
      <ScreenHeader
        title={t('funnels.description.title')}
        subtitle={t('funnels.description.subtitle')}
        back={<BackLink to="/content/funnels/$funnelId/" params={{ funnelId: String(funnelId) }} label={t('common.back')} />}
      />
      <form className="form" onSubmit={(event) => void update(event)} noValidate>
        <FormAlert messages={errors.messages} />
        <CountedArea
          label={t('funnels.description.description')}
          value={value?.description ?? ''}
          max={BOT_DESCRIPTION_MAX}
          rows={6}
          errors={errors.fields.description}
          onChange={(description) => setValue({ short_description: value?.short_description ?? '', description })}
        />
        <p className="field-hint">{t('funnels.description.descriptionHint')}</p>
        <CountedArea
          label={t('funnels.description.short')}
          value={value?.short_description ?? ''}
          max={BOT_SHORT_DESCRIPTION_MAX}
          rows={3}
          errors={errors.fields.short_description}
          onChange={(short_description) => setValue({ description: value?.description ?? '', short_description })}
        />
        <p className="field-hint">{t('funnels.description.shortHint')}</p>
        <Button type="submit" disabled={!value}>
          {t('funnels.description.update')}
        </Button>
      </form>
      <Button variant="plain" onClick={() => void load().then((ok) => ok && success(t('funnels.description.loaded')))}>
        {t('funnels.description.load')}
      </Button>
    </Screen>
  );
}
