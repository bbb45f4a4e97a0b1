// /content/funnels/$funnelId/copy/: copies this funnel's stages, messages and tags into another
// of the user's funnels (added after what that funnel already has).
import './funnels.css';
import { Link, useNavigate } from '@tanstack/react-router';
import { ROUTES } from '../../../contract/routes';
import { useState } from 'react';
import type { Funnel } from '../../../contract/funnels';
import { copyFunnel } from '@/api/funnels';
import { useTranslation } from 'react-i18next';
import { usePageHead } from '@/state/ui';
import { EmptyState } from '@/ui/blocks';
import { Button, FormAlert } from '@/ui/form';
import { BotIcon, CheckIcon } from '@/ui/icons';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { ConfirmDialog } from '@/ui/Dialog';
import { BackLink } from '@/ui/BackLink';
import { runChange } from '@/api/action';
import { describeFailure, success } from '@/api/useApi';
import { useBotLabel } from '@/ui/botLabel';

/** `source`: the funnel to copy; `funnels`: all of the user's, loaded by the route together. */
export function CopyScreen({ source, funnels }: { source: Funnel; funnels: Funnel[] }) {
  const { t } = useTranslation();
  const botLabel = useBotLabel();
  usePageHead(t('funnels.copy.title'));
  const navigate = useNavigate();
  const funnelId = source.id;
  const targets = funnels.filter((f) => f.id !== funnelId);
  // With one place to copy into, it is chosen already.
  const [target, setTarget] = useState<number | null>(targets.length === 1 ? targets[0].id : null);
  const [asking, setAsking] = useState(false);
  const [messages, setMessages] = useState<string[]>([]);
  const chosen = targets.find((f) => f.id === target);

  async function copy() {
    setAsking(false);
    if (!chosen) return;
    const result = await runChange(() => copyFunnel(funnelId, chosen.id));
    if (!result.ok) {
      const problem = describeFailure(result.failure);
      return setMessages([...problem.messages, ...Object.values(problem.fields).flat()]);
    }
    success(t('funnels.copy.done', { name: chosen.name }));
    await navigate({ to: '/content/funnels/$funnelId/', params: { funnelId: String(chosen.id) } });
  }

  return (
    <Screen>
      <ScreenHeader
        title={t('funnels.copy.title')}
        subtitle={t('funnels.copy.subtitle', { name: source.name })}
        back={<BackLink to="/content/funnels/$funnelId/" params={{ funnelId: String(funnelId) }} label={t('common.back')} />}
      />
      <FormAlert messages={messages} />
      {targets.length === 0 ? (
        <EmptyState icon={<BotIcon />} title={t('funnels.copy.noTargetsTitle')}>
          <p>{t('funnels.copy.noTargetsText')}</p>
          <Link to={ROUTES.connectBot} className="button button--primary">
            {t('funnels.copy.connect')}
          </Link>
        </EmptyState>
      ) : (
        <fieldset className="picker">
          <legend className="section-title">{t('funnels.copy.target')}</legend>
          <div className="section radio-list">
            {targets.map((funnel) => (
              <label key={funnel.id} className="row radio-row">
                <input type="radio" name="target" className="visually-hidden" checked={target === funnel.id} onChange={() => setTarget(funnel.id)} />
                <span className="row-body">
                  <span className="row-title">{funnel.name}</span>
                  <span className="row-description">
                    {botLabel(funnel)} · {t('funnels.list.stages', { count: funnel.stage_count })}
                  </span>
                </span>
                <CheckIcon className="radio-check" />
              </label>
            ))}
          </div>
          <p className="section-footer">{t('funnels.copy.hint')}</p>
        </fieldset>
      )}
      {targets.length > 0 ? (
        <>
          <Button disabled={!chosen} onClick={() => setAsking(true)} aria-describedby={chosen ? undefined : 'copy-why'}>
            {t('funnels.copy.copy')}
          </Button>
          {chosen ? null : (
            <p className="field-hint copy-why" id="copy-why">
              {t('funnels.copy.chooseFirst')}
            </p>
          )}
        </>
      ) : null}
      {asking && chosen ? (
        <ConfirmDialog title={t('funnels.copy.confirmTitle')} confirmLabel={t('funnels.copy.copy')} cancelLabel={t('funnels.common.cancel')} onConfirm={() => void copy()} onCancel={() => setAsking(false)}>
          <p>{t('funnels.copy.confirmText', { from: source.name, to: chosen.name })}</p>
        </ConfirmDialog>
      ) : null}
    </Screen>
  );
}
