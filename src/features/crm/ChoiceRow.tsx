// A row with a choice and the button that acts on it (add a funnel or a template to a folder,
// mail a list from a funnel): the button waits for a choice.
import type { ReactNode } from 'react';
import { Button } from '@/ui/form';

export function ChoiceRow({
  label,
  placeholder,
  options,
  value,
  onChange,
  action,
  onAct,
  busy = false,
  stack = false,
  testId,
}: {
  label: string;
  placeholder: string;
  options: Array<{ id: number; name: string }>;
  value: number | '';
  onChange: (value: number | '') => void;
  action: ReactNode;
  onAct: (id: number) => void;
  busy?: boolean;
  /** The button under the choice, full width (a long label). */
  stack?: boolean;
  testId: string;
}) {
  return (
    <div className={`row row--static folder-add${stack ? ' folder-add--stack' : ''}`}>
      <select className="field-input field-select" aria-label={label} value={value} onChange={(event) => onChange(event.target.value ? Number(event.target.value) : '')} data-testid={`${testId}-choice`}>
        <option value="">{placeholder}</option>
        {options.map((option) => (
          <option key={option.id} value={option.id}>
            {option.name}
          </option>
        ))}
      </select>
      <Button className="button--small" disabled={busy || value === ''} onClick={() => value !== '' && onAct(value)} data-testid={`${testId}-add`}>
        {action}
      </Button>
    </div>
  );
}
