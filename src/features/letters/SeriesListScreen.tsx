// /content/funnels/$funnelId/series/: the funnel's series of letters — each with whether it is on,
// its letters and members — and a new one by name (it opens to be set up).
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Funnel } from '../../../contract/funnels';
import { SERIES_NAME_MAX, type Series } from '../../../contract/letters';
import { runChange } from '@/api/action';
import { createSeries } from '@/api/letters';
import { describeFailure, type TranslatedFailure } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState, RowContent, Section } from '@/ui/blocks';
import { Button, FormAlert, TextField } from '@/ui/form';
import { ListIcon } from '@/ui/icons';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { seriesStatus } from './parts';
import './letters.css';

/** The device's time zone: the owner's, for sending times. */
export const deviceTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export function SeriesListScreen({ funnel, series }: { funnel: Funnel; series: Series[] }) {
  const { t } = useTranslation();
  usePageHead(t('letters.title'));
  const navigate = useNavigate();
  const funnelId = String(funnel.id);
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<TranslatedFailure>({ fields: {}, messages: [] });

  async function create(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setErrors({ fields: { name: [t('funnels.serverErrors.blank')] }, messages: [] });
    const result = await runChange(() => createSeries(funnel.id, { name: name.trim(), time_zone: deviceTimeZone() }));
    if (!result.ok) return setErrors(describeFailure(result.failure, ['name']));
    await navigate({ to: '/content/funnels/$funnelId/series/$seriesId/', params: { funnelId, seriesId: String(result.value.id) } });
  }

  return (
    <Screen>
      <ScreenHeader title={t('letters.title')} subtitle={funnel.name} back={<BackLink to="/content/funnels/$funnelId/" params={{ funnelId }} label={funnel.name} />} />
      {series.length === 0 ? (
        <EmptyState icon={<ListIcon />} title={t('letters.emptyTitle')}>
          {t('letters.emptyText')}
        </EmptyState>
      ) : (
        <Section>
          {series.map((s) => {
            const status = seriesStatus(s);
            return (
            <Link key={s.id} to="/content/funnels/$funnelId/series/$seriesId/" params={{ funnelId, seriesId: String(s.id) }} className="row" data-testid="series-row">
              <RowContent
                title={s.name}
                description={
                  <>
                    {status === 'on' ? null : (
                      <span className="series-why-off" data-testid="series-why-off">
                        {t(`letters.whyOff.${status}`)}
                      </span>
                    )}
                    {`${t('letters.lettersCount', { count: s.letters.length })} · ${t('letters.membersCount', { count: s.members_count })}`}
                  </>
                }
                value={
                  <span className={`series-state${status === 'on' ? ' series-state--on' : ''}`} data-testid="series-row-state">
                    {status === 'on' ? t('letters.on') : t('letters.off')}
                  </span>
                }
              />
            </Link>
            );
          })}
        </Section>
      )}
      <form className="form" onSubmit={(event) => void create(event)} noValidate>
        <FormAlert messages={errors.messages} />
        <TextField label={t('letters.newName')} value={name} maxLength={SERIES_NAME_MAX} onChange={(e) => setName(e.target.value)} errors={errors.fields.name} placeholder={t('letters.newPlaceholder')} />
        <Button type="submit" data-testid="create-series">
          {t('letters.create')}
        </Button>
      </form>
    </Screen>
  );
}
