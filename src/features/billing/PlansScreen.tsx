// /settings/plans/ (admins): the plans users can buy and the free plan's limits: list, add, edit,
// archive and restore. Gating is on while a paid plan is not archived. The server's field errors
// are shown under their fields.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminPlan, AdminPlanInput } from '../../../contract/billing';
import { ROUTES } from '../../../contract/routes';
import { createPlan, updatePlan } from '@/api/billing';
import { runChange } from '@/api/action';
import { describeFailure } from '@/api/useApi';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState, Section } from '@/ui/blocks';
import { Button, FormAlert, TextField } from '@/ui/form';
import { ListIcon } from '@/ui/icons';
import { formatMoney } from '@/ui/money';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { PlanLimits } from './PlanLimits';
import './billing.css';

/** The form's text, as typed (numbers are checked on save). */
interface PlanDraft {
  title: string;
  description: string;
  is_free: boolean;
  running_funnels: string;
  people: string;
  mailings: boolean;
  letters: boolean;
  price_stars: string;
  price_card: string;
  card_currency: string;
  position: string;
}

type FieldErrors = Record<string, string[]>;

const EMPTY_DRAFT: PlanDraft = {
  title: '',
  description: '',
  is_free: false,
  running_funnels: '',
  people: '',
  mailings: true,
  letters: true,
  price_stars: '',
  price_card: '',
  card_currency: 'USD',
  position: '0',
};

/** Minor units per major unit of a currency (100 for USD, 1 for JPY). */
function minorUnitsOf(currency: string): number {
  try {
    return 10 ** (new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2);
  } catch {
    return 100;
  }
}

function draftOf(plan: AdminPlan): PlanDraft {
  const currency = plan.card_currency ?? 'USD';
  return {
    title: plan.title,
    description: plan.description,
    is_free: plan.is_free,
    running_funnels: plan.limits.running_funnels === null ? '' : String(plan.limits.running_funnels),
    people: plan.limits.people === null ? '' : String(plan.limits.people),
    mailings: plan.limits.mailings,
    letters: plan.limits.letters,
    price_stars: plan.price_stars === null ? '' : String(plan.price_stars),
    price_card: plan.price_card === null ? '' : String(plan.price_card / minorUnitsOf(currency)),
    card_currency: currency,
    position: String(plan.position),
  };
}

/** The request body from the draft, or the fields the browser can already tell are wrong. */
interface DraftMessages {
  wholeNumber: string;
  amount: string;
  currencyNeeded: string;
  titleNeeded: string;
}

export function planInputOf(draft: PlanDraft, say: DraftMessages): { body: AdminPlanInput } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  const whole = (field: keyof PlanDraft, value: string): number | null => {
    const text = value.trim();
    if (text === '') return null;
    if (!/^\d+$/.test(text)) {
      errors[field] = [say.wholeNumber];
      return null;
    }
    return Number(text);
  };
  const title = draft.title.trim();
  if (!title) errors.title = [say.titleNeeded];
  const runningFunnels = whole('running_funnels', draft.running_funnels);
  const people = whole('people', draft.people);
  const priceStars = whole('price_stars', draft.price_stars);
  const position = whole('position', draft.position) ?? 0;
  const currency = draft.card_currency.trim().toUpperCase();
  let priceCard: number | null = null;
  const cardText = draft.price_card.trim().replace(',', '.');
  if (cardText !== '') {
    if (!/^\d+(\.\d{1,2})?$/.test(cardText)) errors.price_card = [say.amount];
    else priceCard = Math.round(Number(cardText) * minorUnitsOf(currency || 'USD'));
    if (!currency) errors.card_currency = [say.currencyNeeded];
  }
  if (Object.keys(errors).length > 0) return { errors };
  return {
    body: {
      title,
      description: draft.description.trim(),
      is_free: draft.is_free,
      limits: { running_funnels: runningFunnels, people, mailings: draft.mailings, letters: draft.letters },
      price_stars: draft.is_free ? null : priceStars,
      price_card: draft.is_free ? null : priceCard,
      card_currency: priceCard === null || draft.is_free ? null : currency,
      position,
    },
  };
}

const FORM_FIELDS = ['title', 'description', 'is_free', 'limits', 'running_funnels', 'people', 'price_stars', 'price_card', 'card_currency', 'position', 'archived'] as const;

export function PlansScreen({ plans }: { plans: AdminPlan[] }) {
  const { t } = useTranslation();
  usePageHead(t('plans.title'), t('plans.description'));
  /** The plan being edited: its id, 'new', or none. */
  const [editing, setEditing] = useState<number | 'new' | null>(null);

  async function setArchived(plan: AdminPlan, archived: boolean) {
    await runChange(() => updatePlan(plan.id, { archived }), { notice: t('plans.saved') });
  }

  return (
    <Screen>
      <ScreenHeader title={t('plans.title')} subtitle={t('plans.subtitle')} back={<BackLink to={ROUTES.settings} label={t('common.back')} />} />
      {editing === 'new' ? (
        <PlanEditor key="new" title={t('plans.newTitle')} initial={EMPTY_DRAFT} onDone={() => setEditing(null)} save={(body) => createPlan(body)} />
      ) : (
        <Button onClick={() => setEditing('new')} data-testid="add-plan">
          {t('plans.add')}
        </Button>
      )}
      {plans.length === 0 ? (
        <Section>
          <EmptyState icon={<ListIcon />} title={t('plans.title')}>
            <p>{t('plans.empty')}</p>
          </EmptyState>
        </Section>
      ) : (
        <ul className="plan-list">
          {plans.map((plan) =>
            editing === plan.id ? (
              <li key={plan.id}>
                <PlanEditor title={t('plans.editTitle')} initial={draftOf(plan)} onDone={() => setEditing(null)} save={(body) => updatePlan(plan.id, body)} />
              </li>
            ) : (
              <li key={plan.id} className="plan-offer" data-testid="admin-plan" data-plan={plan.id}>
                <div className="plan-offer-head">
                  <h2 className="plan-offer-title">{plan.title}</h2>
                  <span className="plan-offer-price">
                    {plan.is_free
                      ? t('subscribe.free')
                      : [plan.price_stars !== null ? formatMoney(plan.price_stars, 'XTR') : null, plan.price_card !== null && plan.card_currency ? formatMoney(plan.price_card, plan.card_currency) : null]
                          .filter(Boolean)
                          .join(' · ')}
                  </span>
                </div>
                {plan.archived ? <p className="plan-offer-note">{t('plans.archived')}</p> : null}
                {plan.description ? <p className="plan-offer-text">{plan.description}</p> : null}
                <PlanLimits limits={plan.limits} />
                <div className="plan-editor-actions">
                  <Button variant="secondary" onClick={() => setEditing(plan.id)} data-testid="edit-plan">
                    {t('plans.edit')}
                  </Button>
                  <Button variant="plain" onClick={() => void setArchived(plan, !plan.archived)} data-testid={plan.archived ? 'restore-plan' : 'archive-plan'}>
                    {plan.archived ? t('plans.restore') : t('plans.archive')}
                  </Button>
                </div>
              </li>
            ),
          )}
        </ul>
      )}
    </Screen>
  );
}

function PlanEditor({ title, initial, save, onDone }: { title: string; initial: PlanDraft; save: (body: AdminPlanInput) => Promise<AdminPlan>; onDone: () => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [messages, setMessages] = useState<string[]>([]);
  const set = <K extends keyof PlanDraft>(field: K, value: PlanDraft[K]) => setDraft((current) => ({ ...current, [field]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = planInputOf(draft, {
      wholeNumber: t('plans.wholeNumber'),
      amount: t('plans.amount'),
      currencyNeeded: t('plans.currencyNeeded'),
      titleNeeded: t('plans.titleNeeded'),
    });
    if ('errors' in parsed) {
      setErrors(parsed.errors);
      setMessages([]);
      return;
    }
    const result = await runChange(() => save(parsed.body), { notice: t('plans.saved') });
    if (result.ok) return onDone();
    const described = describeFailure(result.failure, FORM_FIELDS);
    setErrors(described.fields);
    setMessages(described.messages);
  }

  const text = (field: keyof PlanDraft, label: string, extra: { hint?: string; inputMode?: 'numeric' | 'decimal'; errors?: string[] } = {}) => (
    <TextField
      label={label}
      value={String(draft[field])}
      onChange={(event) => set(field, event.target.value)}
      inputMode={extra.inputMode}
      hint={extra.hint}
      errors={extra.errors ?? errors[field]}
      name={field}
    />
  );
  const check = (field: 'is_free' | 'mailings' | 'letters', label: string) => (
    <label className="plan-editor-check">
      <input type="checkbox" name={field} checked={draft[field]} onChange={(event) => set(field, event.target.checked)} />
      {label}
    </label>
  );

  return (
    <form className="plan-editor" onSubmit={(event) => void submit(event)} noValidate data-testid="plan-editor">
      <h2 className="plan-offer-title">{title}</h2>
      <FormAlert messages={messages} />
      {text('title', t('plans.fieldTitle'))}
      {text('description', t('plans.fieldDescription'))}
      <div className="plan-editor-checks">{check('is_free', t('plans.fieldFree'))}</div>
      {text('running_funnels', t('plans.fieldFunnels'), { hint: t('plans.limitHint'), inputMode: 'numeric', errors: errors.running_funnels ?? errors.limits })}
      {text('people', t('plans.fieldPeople'), { hint: t('plans.limitHint'), inputMode: 'numeric' })}
      <div className="plan-editor-checks">
        {check('mailings', t('plans.fieldMailings'))}
        {check('letters', t('plans.fieldLetters'))}
      </div>
      {draft.is_free ? null : (
        <>
          {text('price_stars', t('plans.fieldStars'), { hint: t('plans.starsHint'), inputMode: 'numeric' })}
          {text('price_card', t('plans.fieldCard'), { hint: t('plans.cardHint'), inputMode: 'decimal' })}
          {text('card_currency', t('plans.fieldCurrency'), { hint: t('plans.currencyHint') })}
        </>
      )}
      {text('position', t('plans.fieldPosition'), { inputMode: 'numeric' })}
      <div className="plan-editor-actions">
        <Button type="submit" data-testid="save-plan">
          {t('plans.save')}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          {t('plans.cancel')}
        </Button>
      </div>
    </form>
  );
}
