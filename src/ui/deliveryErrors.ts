// Why a message did not reach a person (or could not be deleted), in the user's words: the server
// sends a stable reason (contract/delivery.ts); every screen that shows a delivery's error says it
// with these words, and Telegram's own English text stays a detail.
import { useTranslation } from 'react-i18next';
import type { DeliveryErrorReason } from '../../contract/delivery';

export function useDeliveryErrorWords(): (reason: DeliveryErrorReason) => string {
  const { t } = useTranslation();
  return (reason) => t(`deliveryError.${reason}`);
}
