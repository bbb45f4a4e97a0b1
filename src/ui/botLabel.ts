// How a funnel's bot is named on every screen: "@username", or "No bot yet" for a funnel added
// from a template before its owner connected a bot.
import { useTranslation } from 'react-i18next';

export function useBotLabel(): (funnel: { bot_username: string | null }) => string {
  const { t } = useTranslation();
  return (funnel) => (funnel.bot_username ? `@${funnel.bot_username}` : t('funnels.funnel.noBot'));
}
