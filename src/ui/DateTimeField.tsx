// Date and time fields in the app's language, not the browser's: a native <input type="date"> or
// "time" shows the browser's format (a Russian app in an English browser read "11/26/2026, 10:00 PM"),
// and Chromium ignores `lang` there. These are text fields that show and read the app language's
// format (ru: 26.11.2026 and 24-hour 22:00; en: 11/26/2026 and 10:00 PM) and hand the form the
// same values as the native ones: "YYYY-MM-DD", "HH:MM" and "YYYY-MM-DDTHH:MM".
import { useState, type InputHTMLAttributes } from 'react';
import { currentLanguage } from '@/i18n/i18n';
import './date-time-field.css';

type DatePart = 'day' | 'month' | 'year';
const pad = (n: number) => String(n).padStart(2, '0');

/** The order of day, month and year and the separator between them, as the language writes a date. */
function dateOrder(language: string): { order: DatePart[]; separator: string } {
  const parts = new Intl.DateTimeFormat(language, { day: '2-digit', month: '2-digit', year: 'numeric' }).formatToParts(new Date(2026, 10, 26));
  const order = parts.map((part) => part.type).filter((type): type is DatePart => type === 'day' || type === 'month' || type === 'year');
  return { order, separator: parts.find((part) => part.type === 'literal')?.value ?? '.' };
}

const hour12 = (language: string) => new Intl.DateTimeFormat(language, { hour: 'numeric' }).resolvedOptions().hour12 === true;

/** "2026-11-26" as the language writes it ("26.11.2026", "11/26/2026"); '' for ''. */
export function formatDateValue(value: string, language: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return '';
  const parts: Record<DatePart, string> = { year: match[1], month: match[2], day: match[3] };
  const { order, separator } = dateOrder(language);
  return order.map((part) => parts[part]).join(separator);
}

/** What was typed, in the language's order with any separator, as "YYYY-MM-DD"; null if it is no date. */
export function parseDateText(text: string, language: string): string | null {
  const numbers = text.trim().split(/[^\d]+/).filter(Boolean);
  if (numbers.length !== 3) return null;
  const { order } = dateOrder(language);
  const parts = Object.fromEntries(order.map((part, index) => [part, Number(numbers[index])])) as Record<DatePart, number>;
  if (numbers[order.indexOf('year')].length !== 4) return null;
  const date = new Date(Date.UTC(parts.year, parts.month - 1, parts.day));
  if (date.getUTCFullYear() !== parts.year || date.getUTCMonth() !== parts.month - 1 || date.getUTCDate() !== parts.day) return null;
  return `${parts.year}-${pad(parts.month)}-${pad(parts.day)}`;
}

/** "22:00" as the language writes it ("22:00", "10:00 PM"); '' for ''. */
export function formatTimeValue(value: string, language: string): string {
  const match = /^(\d{2}):(\d{2})$/.exec(value);
  if (!match) return '';
  return new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(new Date(Date.UTC(2026, 0, 1, Number(match[1]), Number(match[2]))));
}

/** "22:00", "22.00", "10:00 pm", "10 PM" as "HH:MM"; null if it is no time of day. */
export function parseTimeText(text: string): string | null {
  const match = /^(\d{1,2})(?:[:.](\d{2}))?\s*([ap])?\.?\s*m?\.?$/i.exec(text.trim());
  if (!match) return null;
  let hours = Number(match[1]);
  const minutes = Number(match[2] ?? '0');
  const half = match[3]?.toLowerCase();
  if (half) {
    if (hours < 1 || hours > 12) return null;
    hours = (hours % 12) + (half === 'p' ? 12 : 0);
  }
  if (hours > 23 || minutes > 59) return null;
  return `${pad(hours)}:${pad(minutes)}`;
}

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> & {
  value: string;
  /** The native input's value: '' when cleared; called only with a complete, valid value or ''. */
  onChange: (value: string) => void;
};

/** A text field that shows `value` through `format` and hands back what `parse` reads of what was typed. */
function FormattedField({ value, onChange, format, parse, onBlur, ...input }: FieldProps & { format: (value: string) => string; parse: (text: string) => string | null }) {
  const [text, setText] = useState(() => format(value));
  const [invalid, setInvalid] = useState(false);
  const shown = format(value);
  // A new value from outside (or a new language) replaces what is shown, unless it is what was typed.
  const [lastShown, setLastShown] = useState(shown);
  if (shown !== lastShown) {
    setLastShown(shown);
    if (parse(text) !== value) setText(shown);
  }

  return (
    <input
      {...input}
      type="text"
      inputMode="numeric"
      autoComplete="off"
      value={text}
      aria-invalid={invalid || undefined}
      onChange={(event) => {
        const typed = event.target.value;
        setText(typed);
        const parsed = typed.trim() === '' ? '' : parse(typed);
        setInvalid(parsed === null);
        if (parsed !== null && parsed !== value) onChange(parsed);
      }}
      onBlur={(event) => {
        const parsed = parse(text);
        if (parsed !== null) setText(format(parsed));
        onBlur?.(event);
      }}
    />
  );
}

export function DateField(props: FieldProps) {
  const language = currentLanguage();
  return <FormattedField {...props} placeholder={props.placeholder ?? formatDateValue('2026-11-26', language)} format={(value) => formatDateValue(value, language)} parse={(text) => parseDateText(text, language)} />;
}

export function TimeField(props: FieldProps) {
  const language = currentLanguage();
  return <FormattedField {...props} inputMode={hour12(language) ? 'text' : 'numeric'} placeholder={props.placeholder ?? formatTimeValue('10:00', language)} format={(value) => formatTimeValue(value, language)} parse={parseTimeText} />;
}

/** A moment ("YYYY-MM-DDTHH:MM", as <input type="datetime-local">): a date and a time side by side. */
export function DateTimeField({ value, onChange, dateLabel, timeLabel, testId }: { value: string; onChange: (value: string) => void; dateLabel: string; timeLabel: string; testId?: string }) {
  // Each half is kept while the other is still being typed; the moment goes out once both are whole.
  const [moment, setMoment] = useState(() => {
    const [date = '', time = ''] = value.split('T');
    return { date, time };
  });
  const change = (next: { date: string; time: string }) => {
    setMoment(next);
    onChange(next.date && next.time ? `${next.date}T${next.time}` : '');
  };
  return (
    <span className="date-time-field" data-testid={testId}>
      <DateField className="field-input" aria-label={dateLabel} value={moment.date} onChange={(date) => change({ ...moment, date })} data-testid={testId ? `${testId}-date` : undefined} />
      <TimeField className="field-input" aria-label={timeLabel} value={moment.time} onChange={(time) => change({ ...moment, time })} data-testid={testId ? `${testId}-time` : undefined} />
    </span>
  );
}
