// The product API's error codes (contract/errors.ts) → the screens' words for them, under
// `funnels.serverErrors.*` in the locale files. A code with no words of its own (`invalid`), or a
// text with no code, is shown as the server wrote it.
import type { ApiErrorCode, CodedMessage } from '../../contract/errors';
import type en from '../../locales/en.json';

type ServerErrorKey = keyof (typeof en)['funnels']['serverErrors'];

const KEYS: Partial<Record<ApiErrorCode, ServerErrorKey>> = {
  malformed_token: 'malformedToken',
  unknown_token: 'unknownToken',
  already_connected: 'alreadyConnected',
  telegram_down: 'telegramDown',
  token_revoked: 'tokenRevoked',
  run_without_stages: 'runWithoutStages',
  stage_without_message: 'stageWithoutMessage',
  last_stage_next: 'lastStageNext',
  other_bot: 'otherBot',
  person_blocked: 'personBlocked',
  not_delivered: 'notDelivered',
  run_archived: 'runArchived',
  delete_not_archived: 'deleteNotArchived',
  order_locked: 'orderLocked',
  order_mismatch: 'orderMismatch',
  too_many_stages: 'tooManyStages',
  too_many_tags: 'tooManyTags',
  tag_title_taken: 'tagTitleTaken',
  too_many_sources: 'tooManySources',
  copy_into_itself: 'copyIntoItself',
  broken_choice: 'brokenChoice',
  broken_wait: 'brokenWait',
  wait_too_long: 'waitTooLong',
  wait_to_itself: 'waitToItself',
  broken_payment: 'brokenPayment',
  payment_refunded: 'paymentRefunded',
  payment_not_refundable: 'paymentNotRefundable',
  charge_not_found: 'chargeNotFound',
  balance_too_low: 'balanceTooLow',
  null: 'notNull',
  keyword_taken: 'keywordTaken',
  keyword_without_word: 'keywordWithoutWord',
  too_many_keywords: 'tooManyKeywords',
  field_key_taken: 'fieldKeyTaken',
  field_key_reserved: 'fieldKeyReserved',
  field_options: 'fieldOptions',
  too_many_fields: 'tooManyFields',
  broken_ask: 'brokenAsk',
  ask_with_buttons: 'askWithButtons',
  field_value: 'fieldValue',
  bad_webhook_url: 'badWebhookUrl',
  webhook_not_https: 'webhookNotHttps',
  webhook_private_address: 'webhookPrivateAddress',
  too_many_webhooks: 'tooManyWebhooks',
  required: 'required',
  blank: 'blank',
  too_long: 'tooLong',
  does_not_exist: 'doesNotExist',
  bad_button_url: 'badButtonUrl',
  bad_html: 'badHtml',
  file_too_big: 'fileTooBig',
  unsupported_file: 'unsupportedFile',
  empty_file: 'emptyFile',
  empty_audience: 'emptyAudience',
  mailing_state: 'mailingState',
  schedule_in_past: 'scheduleInPast',
  unsend_too_late: 'unsendTooLate',
  funnel_archived: 'funnelArchived',
  incorrect_data: 'incorrectData',
  no_sending_time: 'noSendingTime',
  too_many_letters: 'tooManyLetters',
  no_bot: 'noBot',
  template_without_stages: 'templateWithoutStages',
  funnel_was_run: 'funnelWasRun',
  template_up_to_date: 'templateUpToDate',
  not_from_template: 'notFromTemplate',
  segment_members: 'segmentMembers',
  subscription_inactive: 'subscriptionInactive',
  card_payments_off: 'cardPaymentsOff',
  not_sold_by_card: 'notSoldByCard',
  card_provider_down: 'cardProviderDown',
  already_subscribed: 'alreadySubscribed',
  too_many_links: 'tooManyLinks',
  below_minimum: 'belowMinimum',
  above_available: 'aboveAvailable',
  withdrawal_state: 'withdrawalState',
  not_found: 'notFound',
};

export interface CodeTranslation {
  key: `funnels.serverErrors.${ServerErrorKey}`;
  options: { count: number; detail: string };
}

/** The locale key and its values for a coded message, or null to show the server's text. */
export function translationOf(coded: CodedMessage | null | undefined): CodeTranslation | null {
  const key = coded ? KEYS[coded.code] : undefined;
  if (!coded || !key) return null;
  return { key: `funnels.serverErrors.${key}` as const, options: { count: coded.count ?? 0, detail: coded.detail ?? '' } };
}
