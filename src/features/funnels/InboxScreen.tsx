// /content/funnels/$funnelId/inbox/: what people wrote to the funnel's bot, one conversation per
// person, newest first, with what is not read yet; and the switch for the service bot's alerts.
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Funnel, InboxPage } from '../../../contract/funnels';
import { runChange } from '@/api/action';
import { setInboxAlerts } from '@/api/funnels';
import { currentLanguage } from '@/i18n/i18n';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState, Section } from '@/ui/blocks';
import { SendIcon } from '@/ui/glyphs';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { personName } from './parts';
import { noticeFailure, success, useRefreshWhile } from '@/api/useApi';

export function InboxScreen({ funnel, inbox }: { funnel: Funnel; inbox: InboxPage }) {
  const { t } = useTranslation();
  usePageHead(t('funnels.inbox.title'));
  const [alerts, setAlerts] = useState(funnel.inbox_alerts);
  const time = new Intl.DateTimeFormat(currentLanguage(), { dateStyle: 'short', timeStyle: 'short' });
  // New messages arrive while the owner looks.
  useRefreshWhile(true, 10_000);

  async function toggleAlerts(on: boolean) {
    setAlerts(on);
    const result = await runChange(() => setInboxAlerts(funnel.id, on));
    if (!result.ok) {
      setAlerts(!on);
      return noticeFailure(result.failure);
    }
    success(on ? t('funnels.inbox.alertsOn') : t('funnels.inbox.alertsOff'));
  }

  return (
    <Screen>
      <ScreenHeader
        title={t('funnels.inbox.title')}
        subtitle={inbox.unread_total > 0 ? t('funnels.inbox.unread', { count: inbox.unread_total }) : funnel.name}
        back={<BackLink to="/content/funnels/$funnelId/" params={{ funnelId: String(funnel.id) }} label={funnel.name} />}
      />
      {inbox.results.length === 0 ? (
        <div className="section">
          <EmptyState icon={<SendIcon />} title={t('funnels.inbox.emptyTitle')}>
            <p>{t('funnels.inbox.emptyText', { username: funnel.bot_username })}</p>
          </EmptyState>
        </div>
      ) : (
        <div className="section">
          {inbox.results.map((conversation) => (
            <Link
              key={conversation.person.id}
              to="/content/funnels/$funnelId/inbox/$personId/"
              params={{ funnelId: String(funnel.id), personId: String(conversation.person.id) }}
              className={`row conversation-row${conversation.unread_count > 0 ? ' conversation-row--unread' : ''}`}
              data-testid="conversation"
            >
              <span className="person-avatar" aria-hidden="true">
                {personName(conversation.person).charAt(0).toUpperCase()}
              </span>
              <span className="row-body">
                <span className="conversation-top">
                  <span className="row-title">{personName(conversation.person)}</span>
                  <time className="conversation-time" dateTime={conversation.last_message_at}>
                    {time.format(new Date(conversation.last_message_at))}
                  </time>
                </span>
                <span className="conversation-bottom">
                  <span className="row-description conversation-text">{conversation.last_text || t('funnels.inbox.attachment')}</span>
                  {conversation.unread_count > 0 ? (
                    <span className="unread-badge" data-testid="unread" aria-label={t('funnels.inbox.unread', { count: conversation.unread_count })}>
                      {conversation.unread_count}
                    </span>
                  ) : null}
                </span>
              </span>
            </Link>
          ))}
        </div>
      )}
      <Section footer={t('funnels.inbox.alertsHint')}>
        <label className="row switch-row">
          <span className="row-body">
            <span className="row-title">{t('funnels.inbox.alerts')}</span>
          </span>
          <input type="checkbox" className="switch" role="switch" checked={alerts} onChange={(event) => void toggleAlerts(event.target.checked)} />
        </label>
      </Section>
    </Screen>
  );
}
