// The funnels `npm run bench:bots` drives and what each subscriber does in them, shared by the
// runtime side (scripts/bench/bots.ts builds the funnels) and the fake side (bots-fake.ts plays the
// subscribers and checks each chat's replies against the script).
//
// 'linear' (issue 3): /start, then the next-step button on every reply, through 3 stages.
// 'branches' (issue 24): choice buttons to two branches, an e-mail question (some answers invalid
// and asked again), a keyword, and ordinary text that goes to the inbox (no reply).
import type { StageSpec } from '../../server/test/funnel-runtime';

export type BenchFunnel = 'linear' | 'branches';

/** A kind of update the subscribers send; the figures are given per kind. */
export type UpdateKind = 'start' | 'next' | 'choice' | 'email-invalid' | 'email-valid' | 'keyword' | 'text';

/** One update a subscriber sends, and the start of the reply it must get (null: none at all). */
export interface ScriptStep {
  kind: UpdateKind;
  /** The text written, or for a press the label of the button pressed on the last reply. */
  text: string;
  reply: string | null;
}

const WELCOME = 'Welcome! What brings you here?';
const ASK_EMAIL = 'Your e-mail, please, and the first lesson is on its way.';
export const REASK_EMAIL = 'That does not look like an e-mail address. Your e-mail, please?';
const THANKS = 'Thank you! Lesson one is in your inbox.';
const PRICE = 'The price list: the full course is 990 Stars.';
const CONSULT = 'A consultation: write your question and we answer within a day.';
export const KEYWORD = 'price';
/** Ordinary text: no keyword in it, so it goes to the inbox, unanswered. */
export const ORDINARY_TEXT = 'thank you, see you soon';

const LINEAR_STAGES: StageSpec[] = [
  { text: 'Welcome! Your guide is below.', buttons: [{ text: 'Guide', url: 'https://example.com/guide' }], next: 'Next', tag: 'lead' },
  { text: 'Stage two: the offer', next: 'Next', tag: 'warm' },
  { text: 'Stage three: thanks', next: null },
];

/** Stage 1 asks for the e-mail (bots.ts adds the field, the question and the keyword). */
const BRANCH_STAGES: StageSpec[] = [
  { text: WELCOME, next: null, tag: 'lead', choices: [{ text: 'A course', to: 1 }, { text: 'A consultation', to: 4 }] },
  { text: ASK_EMAIL, next: null },
  { text: THANKS, next: null, tag: 'student' },
  { text: PRICE, next: null },
  { text: CONSULT, next: null, tag: 'consult' },
];

export const BRANCH_ASK_STAGE = 1;
export const BRANCH_KEYWORD_STAGE = 3;

export function stagesOf(funnel: BenchFunnel): StageSpec[] {
  return funnel === 'linear' ? LINEAR_STAGES : BRANCH_STAGES;
}

/**
 * What subscriber number `n` does. Branches: half take the course (a third of those first give an
 * invalid e-mail), half the consultation; both then write the keyword and end with ordinary text.
 */
export function scriptOf(funnel: BenchFunnel, n: number): ScriptStep[] {
  if (funnel === 'linear') {
    return [
      { kind: 'start', text: '/start', reply: LINEAR_STAGES[0].text },
      { kind: 'next', text: 'Next', reply: LINEAR_STAGES[1].text },
      { kind: 'next', text: 'Next', reply: LINEAR_STAGES[2].text },
    ];
  }
  const start: ScriptStep = { kind: 'start', text: '/start', reply: WELCOME };
  const keyword: ScriptStep = { kind: 'keyword', text: 'What is the PRICE of it?', reply: PRICE };
  const text: ScriptStep = { kind: 'text', text: ORDINARY_TEXT, reply: null };
  if (n % 2 === 1) return [start, { kind: 'choice', text: 'A consultation', reply: CONSULT }, keyword, text];
  const invalid: ScriptStep[] = n % 6 === 0 ? [{ kind: 'email-invalid', text: 'not sure yet', reply: REASK_EMAIL }] : [];
  return [
    start,
    { kind: 'choice', text: 'A course', reply: ASK_EMAIL },
    ...invalid,
    { kind: 'email-valid', text: `sub${n}@example.com`, reply: THANKS },
    keyword,
    text,
  ];
}

/** Updates per subscriber on average (the scripts repeat every 6 subscribers). */
export function updatesPerSubscriber(funnel: BenchFunnel): number {
  let total = 0;
  for (let n = 0; n < 6; n++) total += scriptOf(funnel, n).length;
  return total / 6;
}

export function benchFunnelOf(value: string | undefined): BenchFunnel {
  if (value === undefined || value === '' || value === 'branches') return 'branches';
  if (value === 'linear') return 'linear';
  throw new Error(`BENCH_FUNNEL must be 'branches' or 'linear', not '${value}'`);
}
