// Telegram Stars payments: invoice links (createInvoiceLink with Telegram's rules for XTR and
// subscriptions) and invoice messages (sendInvoice, the same rules), the person paying one (pre_checkout_query, answered within 10 s, then a
// successful_payment message), renewals of a subscription, refunds (refundStarPayment, or one
// that Telegram makes by itself) with their refunded_payment message, cancelling renewal
// (editUserStarSubscription), and the bot's transactions (getStarTransactions).
import type { Message, PreCheckoutQuery, StarTransaction, SuccessfulPayment, Update } from 'grammy/types';
import { badRequest, type Params } from './request-body';
import { clamp, clone, ControlError, type FakeBot, type FakeChat, now, randomId } from './model';
import type { ChatMessages } from './messages';
import type { People } from './people';
import type { FakeState } from './state';
import type { UpdateQueues } from './updates';

/** Telegram's one subscription period: 30 days. */
export const STAR_SUBSCRIPTION_PERIOD_S = 2_592_000;
/** The most a Stars subscription may cost per period. */
export const STAR_SUBSCRIPTION_MAX_PRICE = 10_000;
/** The most one Stars invoice may cost. */
export const STAR_INVOICE_MAX_PRICE = 100_000;
export const INVOICE_PAYLOAD_MAX_BYTES = 128;
export const INVOICE_TITLE_MAX = 32;
export const INVOICE_DESCRIPTION_MAX = 255;
/** A bot must answer a pre_checkout_query within this, or the payment fails. */
export const PRE_CHECKOUT_TIMEOUT_MS = 10_000;
export const STAR_TRANSACTIONS_PAGE_MAX = 100;

export const PAYMENT_ERRORS = {
  payloadInvalid: () => badRequest('INVOICE_PAYLOAD_INVALID'),
  titleInvalid: () => badRequest('INVOICE_TITLE_INVALID'),
  descriptionInvalid: () => badRequest('INVOICE_DESCRIPTION_INVALID'),
  providerInvalid: () => badRequest('PAYMENT_PROVIDER_INVALID'),
  starsInvoiceInvalid: () => badRequest('STARS_INVOICE_INVALID'),
  amountInvalid: () => badRequest('CURRENCY_TOTAL_AMOUNT_INVALID'),
  periodInvalid: () => badRequest('SUBSCRIPTION_PERIOD_INVALID'),
  queryTooOld: () => badRequest('query is too old and response timeout expired or query ID is invalid'),
  chargeNotFound: () => badRequest('CHARGE_NOT_FOUND'),
  alreadyRefunded: () => badRequest('CHARGE_ALREADY_REFUNDED'),
  subscriptionNotFound: () => badRequest('SUBSCRIPTION_NOT_FOUND'),
  userInvalid: () => badRequest('USER_ID_INVALID'),
};

const invoiceMessageKey = (token: string, chatId: number, messageId: number) => `${token}:${chatId}:${messageId}`;

export interface PaymentOutcome {
  status: 'paid' | 'failed';
  chargeId?: string;
}

interface Invoice {
  slug: string;
  botToken: string;
  title: string;
  description: string;
  payload: string;
  currency: string;
  amount: number;
  subscriptionPeriod?: number;
}

interface Charge {
  id: string;
  botToken: string;
  userId: number;
  amount: number;
  currency: string;
  payload: string;
  date: number;
  refundedAt?: number;
  /** The subscription's first charge id, for every charge of a subscription. */
  subscriptionId?: string;
}

interface StarSubscription {
  /** Its first charge id: what editUserStarSubscription takes. */
  id: string;
  botToken: string;
  userId: number;
  invoice: Invoice;
  expiresAt: number;
  canceled: boolean;
  ended: boolean;
}

interface PendingCheckout {
  botToken: string;
  answer(ok: boolean): void;
}

export class StarPayments {
  private readonly invoices = new Map<string, Invoice>();
  private readonly charges = new Map<string, Charge>();
  private readonly subscriptions = new Map<string, StarSubscription>();
  private readonly checkouts = new Map<string, PendingCheckout>();
  /** Invoice messages (sendInvoice), by invoiceMessageKey. */
  private readonly invoiceMessages = new Map<string, Invoice>();

  constructor(
    private readonly state: FakeState,
    private readonly updates: UpdateQueues,
    private readonly people: People,
    private readonly preCheckoutTimeoutMs: number,
  ) {}

  // ---------------------------------------------------------------- Bot API

  createInvoiceLink(bot: FakeBot, p: Params): string {
    const invoice = this.starsInvoice(bot, p, true);
    this.invoices.set(invoice.slug, invoice);
    return `https://t.me/$${invoice.slug}`;
  }

  /**
   * An invoice message in the person's chat, with Telegram's rules for Stars (as for links, but no
   * subscription: only createInvoiceLink takes subscription_period). The person pays it through
   * payInvoiceMessage.
   */
  sendInvoice(bot: FakeBot, p: Params, messages: ChatMessages): Message {
    const chat = messages.writableChat(bot, p);
    if (p.has('subscription_period')) throw badRequest('SUBSCRIPTION_PERIOD_INVALID');
    const invoice = this.starsInvoice(bot, p, false);
    const message = messages.storeBotMessage(bot, chat, {
      invoice: { title: invoice.title, description: invoice.description, start_parameter: p.string('start_parameter') ?? '', currency: invoice.currency, total_amount: invoice.amount },
    });
    this.invoiceMessages.set(invoiceMessageKey(bot.token, chat.chat.id, message.message_id), invoice);
    return message;
  }

  /** The Stars invoice a createInvoiceLink or sendInvoice asks for, checked as Telegram does. */
  private starsInvoice(bot: FakeBot, p: Params, allowPeriod: boolean): Invoice {
    const title = p.string('title') ?? '';
    const description = p.string('description') ?? '';
    const payload = p.string('payload') ?? '';
    const currency = p.string('currency') ?? '';
    if (title.length < 1 || title.length > INVOICE_TITLE_MAX) throw PAYMENT_ERRORS.titleInvalid();
    if (description.length < 1 || description.length > INVOICE_DESCRIPTION_MAX) throw PAYMENT_ERRORS.descriptionInvalid();
    const payloadBytes = Buffer.byteLength(payload, 'utf8');
    if (payloadBytes < 1 || payloadBytes > INVOICE_PAYLOAD_MAX_BYTES) throw PAYMENT_ERRORS.payloadInvalid();
    // The fake sells in Stars only: a card currency needs a provider connected in @BotFather.
    if (currency !== 'XTR' || (p.string('provider_token') ?? '') !== '') throw PAYMENT_ERRORS.providerInvalid();
    const prices = p.json<Array<{ label?: unknown; amount?: unknown }>>('prices');
    if (!Array.isArray(prices) || prices.length !== 1 || p.has('max_tip_amount') || p.has('suggested_tip_amounts')) {
      throw PAYMENT_ERRORS.starsInvoiceInvalid();
    }
    const [{ label, amount }] = prices;
    if (typeof label !== 'string' || label === '' || typeof amount !== 'number' || !Number.isInteger(amount)) {
      throw badRequest("can't parse prices JSON object");
    }
    const period = allowPeriod ? p.integer('subscription_period') : undefined;
    if (period !== undefined && period !== STAR_SUBSCRIPTION_PERIOD_S) throw PAYMENT_ERRORS.periodInvalid();
    const maxPrice = period !== undefined ? STAR_SUBSCRIPTION_MAX_PRICE : STAR_INVOICE_MAX_PRICE;
    if (amount < 1 || amount > maxPrice) throw PAYMENT_ERRORS.amountInvalid();
    return {
      slug: randomId(12),
      botToken: bot.token,
      title,
      description,
      payload,
      currency,
      amount,
      ...(period !== undefined ? { subscriptionPeriod: period } : {}),
    };
  }

  answerPreCheckoutQuery(bot: FakeBot, p: Params): true {
    const id = p.string('pre_checkout_query_id') ?? '';
    const ok = p.boolean('ok');
    if (ok === undefined) throw badRequest('parameter "ok" is required');
    if (ok === false && !(p.string('error_message') ?? '').trim()) throw badRequest('ERROR_MESSAGE_EMPTY');
    const pending = this.checkouts.get(id);
    if (!pending || pending.botToken !== bot.token) throw PAYMENT_ERRORS.queryTooOld();
    this.checkouts.delete(id);
    pending.answer(ok);
    return true;
  }

  refundStarPayment(bot: FakeBot, p: Params): true {
    const userId = p.integer('user_id');
    const charge = this.charges.get(p.string('telegram_payment_charge_id') ?? '');
    if (!charge || charge.botToken !== bot.token) throw PAYMENT_ERRORS.chargeNotFound();
    if (charge.userId !== userId) throw PAYMENT_ERRORS.userInvalid();
    if (charge.refundedAt !== undefined) throw PAYMENT_ERRORS.alreadyRefunded();
    this.refund(charge);
    return true;
  }

  editUserStarSubscription(bot: FakeBot, p: Params): true {
    const userId = p.integer('user_id');
    const isCanceled = p.boolean('is_canceled');
    if (isCanceled === undefined) throw badRequest('parameter "is_canceled" is required');
    const charge = this.charges.get(p.string('telegram_payment_charge_id') ?? '');
    const subscription = charge?.subscriptionId ? this.subscriptions.get(charge.subscriptionId) : undefined;
    if (!charge || !subscription || subscription.botToken !== bot.token) throw PAYMENT_ERRORS.subscriptionNotFound();
    if (subscription.userId !== userId) throw PAYMENT_ERRORS.userInvalid();
    subscription.canceled = isCanceled;
    this.state.changed();
    return true;
  }

  getStarTransactions(bot: FakeBot, p: Params): { transactions: StarTransaction[] } {
    const offset = Math.max(0, p.integer('offset') ?? 0);
    const limit = clamp(p.integer('limit') ?? STAR_TRANSACTIONS_PAGE_MAX, 1, STAR_TRANSACTIONS_PAGE_MAX);
    const lines: Array<StarTransaction & { at: number }> = [];
    for (const charge of this.charges.values()) {
      if (charge.botToken !== bot.token) continue;
      const user = this.people.asUser(bot.chats.get(charge.userId)?.user ?? { id: charge.userId, first_name: 'User' });
      const subscription = charge.subscriptionId ? this.subscriptions.get(charge.subscriptionId) : undefined;
      lines.push({
        id: charge.id,
        amount: charge.amount,
        date: charge.date,
        at: charge.date,
        source: {
          type: 'user',
          transaction_type: 'invoice_payment',
          user,
          invoice_payload: charge.payload,
          ...(subscription ? { subscription_period: subscription.invoice.subscriptionPeriod } : {}),
        },
      });
      // A refund is a transaction of its own with the same id, the other way.
      if (charge.refundedAt !== undefined) {
        lines.push({
          id: charge.id,
          amount: charge.amount,
          date: charge.refundedAt,
          at: charge.refundedAt,
          receiver: { type: 'user', transaction_type: 'invoice_payment', user, invoice_payload: charge.payload },
        });
      }
    }
    lines.sort((a, b) => a.at - b.at);
    return { transactions: lines.slice(offset, offset + limit).map(({ at: _at, ...transaction }) => transaction) };
  }

  // ---------------------------------------------------------------- the person's side

  /**
   * The person pays an invoice link: the bot gets a pre_checkout_query and has
   * PRE_CHECKOUT_TIMEOUT_MS to answer it; on ok, a successful_payment message follows.
   */
  async payInvoice({ link, userId }: { link: string; userId: number }): Promise<PaymentOutcome> {
    const slug = /^https:\/\/t\.me\/\$([A-Za-z0-9_-]+)$/.exec(typeof link === 'string' ? link : '')?.[1];
    const invoice = slug ? this.invoices.get(slug) : undefined;
    if (!invoice) throw new ControlError(404, 'No such invoice link');
    if (!Number.isSafeInteger(userId) || userId <= 0) throw new ControlError(400, 'user_id must be a positive integer');
    return this.pay(invoice, userId);
  }

  /** The person pays an invoice message the bot sent to their chat (sendInvoice): as payInvoice. */
  async payInvoiceMessage({ token, chatId, messageId }: { token: string; chatId: number; messageId: number }): Promise<PaymentOutcome> {
    const invoice = this.invoiceMessages.get(invoiceMessageKey(token, chatId, messageId));
    if (!invoice) throw new ControlError(404, `No invoice message ${messageId} in the chat with ${chatId}`);
    return this.pay(invoice, chatId);
  }

  private async pay(invoice: Invoice, userId: number): Promise<PaymentOutcome> {
    const bot = this.state.botFor(invoice.botToken);
    const chat = this.chatWith(bot, userId);
    const queryId = `${bot.me.id}${randomId(8)}`;
    const query: PreCheckoutQuery = {
      id: queryId,
      from: this.people.asUser(chat.user),
      currency: invoice.currency,
      total_amount: invoice.amount,
      invoice_payload: invoice.payload,
    };
    const answered = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.checkouts.delete(queryId);
        resolve(false);
      }, this.preCheckoutTimeoutMs);
      const onClose = () => {
        clearTimeout(timer);
        this.checkouts.delete(queryId);
        resolve(false);
      };
      this.state.events.once('close', onClose);
      this.checkouts.set(queryId, {
        botToken: bot.token,
        answer: (ok) => {
          clearTimeout(timer);
          this.state.events.off('close', onClose);
          resolve(ok);
        },
      });
    });
    const update = this.updates.pushUpdate(bot, { pre_checkout_query: query } as Omit<Update, 'update_id'>);
    // A bot that does not take pre_checkout_query never hears of it: the payment cannot succeed.
    if (update.update_id === 0) this.checkouts.get(queryId)?.answer(false);
    if (!(await answered) || bot.revoked || this.state.closed) return { status: 'failed' };
    const charge = this.charge(bot, chat, invoice, invoice.subscriptionPeriod !== undefined ? 'first' : 'single');
    return { status: 'paid', chargeId: charge.id };
  }

  /** The next period of a subscription is paid (a new charge), unless it was cancelled or refunded. */
  renewSubscription({ chargeId }: { chargeId: string }): PaymentOutcome {
    const charge = this.charges.get(chargeId);
    const subscription = charge?.subscriptionId ? this.subscriptions.get(charge.subscriptionId) : undefined;
    if (!subscription) throw new ControlError(404, 'No subscription with that charge id');
    if (subscription.canceled || subscription.ended) return { status: 'failed' };
    const bot = this.state.botFor(subscription.botToken);
    const renewal = this.charge(bot, this.chatWith(bot, subscription.userId), subscription.invoice, 'renewal', subscription);
    return { status: 'paid', chargeId: renewal.id };
  }

  /** Telegram refunds a charge by itself (support, a dispute): the bot only hears refunded_payment. */
  refundPayment({ chargeId }: { chargeId: string }): void {
    const charge = this.charges.get(chargeId);
    if (!charge) throw new ControlError(404, 'No charge with that id');
    if (charge.refundedAt !== undefined) throw new ControlError(409, 'That charge is refunded already');
    this.refund(charge);
  }

  /** Whether a subscription (by any of its charge ids) renews; undefined when there is none. */
  subscriptionState(chargeId: string): { canceled: boolean; ended: boolean; expiresAt: number } | undefined {
    const charge = this.charges.get(chargeId);
    const subscription = charge?.subscriptionId ? this.subscriptions.get(charge.subscriptionId) : undefined;
    return subscription ? { canceled: subscription.canceled, ended: subscription.ended, expiresAt: subscription.expiresAt } : undefined;
  }

  redeliverMessage(token: string, chatId: number, messageId: number): Update {
    const bot = this.state.botFor(token);
    const stored = bot.chats.get(chatId)?.messages.get(messageId);
    if (!stored) throw new ControlError(404, `No message ${messageId} in the chat with ${chatId}`);
    return this.updates.pushUpdate(bot, { message: clone(stored.message) } as Omit<Update, 'update_id'>);
  }

  reset(): void {
    this.invoices.clear();
    this.invoiceMessages.clear();
    this.charges.clear();
    this.subscriptions.clear();
    for (const pending of this.checkouts.values()) pending.answer(false);
    this.checkouts.clear();
  }

  // ---------------------------------------------------------------- inside

  private chatWith(bot: FakeBot, userId: number): FakeChat {
    return bot.chats.get(userId) ?? this.people.ensureChat(bot, { id: userId, first_name: `User ${userId}` });
  }

  private charge(bot: FakeBot, chat: FakeChat, invoice: Invoice, kind: 'single' | 'first' | 'renewal', renewed?: StarSubscription): Charge {
    const date = now();
    const id = `stx${randomId(24)}`;
    let subscription = renewed;
    if (kind === 'first') {
      subscription = {
        id,
        botToken: bot.token,
        userId: chat.user.id,
        invoice,
        expiresAt: date + STAR_SUBSCRIPTION_PERIOD_S,
        canceled: false,
        ended: false,
      };
      this.subscriptions.set(id, subscription);
    } else if (subscription) {
      subscription.expiresAt += STAR_SUBSCRIPTION_PERIOD_S;
    }
    const charge: Charge = {
      id,
      botToken: bot.token,
      userId: chat.user.id,
      amount: invoice.amount,
      currency: invoice.currency,
      payload: invoice.payload,
      date,
      ...(subscription ? { subscriptionId: subscription.id } : {}),
    };
    this.charges.set(id, charge);
    const payment: SuccessfulPayment = {
      currency: invoice.currency,
      total_amount: invoice.amount,
      invoice_payload: invoice.payload,
      telegram_payment_charge_id: id,
      provider_payment_charge_id: '',
      ...(subscription ? { subscription_expiration_date: subscription.expiresAt, is_recurring: true as const } : {}),
      ...(kind === 'first' ? { is_first_recurring: true as const } : {}),
    };
    this.pushServiceMessage(bot, chat, { successful_payment: payment });
    return charge;
  }

  private refund(charge: Charge): void {
    charge.refundedAt = now();
    // A refunded subscription stops: it neither renews nor lasts to the end of the period.
    const subscription = charge.subscriptionId ? this.subscriptions.get(charge.subscriptionId) : undefined;
    if (subscription) subscription.ended = true;
    const bot = this.state.botFor(charge.botToken);
    this.pushServiceMessage(bot, this.chatWith(bot, charge.userId), {
      refunded_payment: {
        currency: charge.currency,
        total_amount: charge.amount,
        invoice_payload: charge.payload,
        telegram_payment_charge_id: charge.id,
      },
    });
  }

  /** A service message in the person's chat (from the person), delivered to the bot as a message. */
  private pushServiceMessage(bot: FakeBot, chat: FakeChat, content: Pick<Message, 'successful_payment' | 'refunded_payment'>): void {
    const message = {
      message_id: chat.nextMessageId++,
      from: this.people.asUser(chat.user),
      chat: chat.chat,
      date: now(),
      ...content,
    } as Message;
    chat.messages.set(message.message_id, { message, fromBot: false, deleted: false, sentSeq: ++this.state.seq, editedSeq: 0 });
    this.updates.pushUpdate(bot, { message: clone(message) } as Omit<Update, 'update_id'>);
  }
}
