// One segmented control for every "period / scope / state" choice of a screen (7 days · 30 days ·
// All time; This bot · All bots; Requested · Paid · …). WAI-ARIA tabs: a tablist of tabs, the
// chosen one aria-selected; one tab stop for the whole control (roving tabindex), the arrow keys,
// Home and End move between tabs and choose as they go (what a tab shows comes at once or with the
// app's preloader, so focus may follow the choice).
import { useRef, type KeyboardEvent } from 'react';
import './segmented-tabs.css';

export interface SegmentedOption<T extends string> {
  value: T;
  label: string;
}

export function SegmentedTabs<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  /** What is chosen ("Period"): the tablist's accessible name. */
  label: string;
  options: readonly SegmentedOption<T>[];
  // T comes from the options alone (value and onChange are checked against it, not inferred from).
  value: NoInfer<T>;
  onChange(value: NoInfer<T>): void;
}) {
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);
  const selected = options.findIndex((option) => option.value === value);
  // With no option chosen (a value the options lack), the first is the tab stop: the control stays reachable.
  const tabStop = selected === -1 ? 0 : selected;

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const last = options.length - 1;
    const next = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    tabs.current[next]?.focus();
    const option = options[next];
    if (option && option.value !== value) onChange(option.value);
  }

  return (
    <div className="segmented-tabs" role="tablist" aria-label={label}>
      {options.map((option, index) => (
        <button
          key={option.value}
          ref={(tab) => {
            tabs.current[index] = tab;
          }}
          type="button"
          role="tab"
          className="segmented-tab"
          aria-selected={option.value === value}
          tabIndex={index === tabStop ? 0 : -1}
          onClick={() => option.value !== value && onChange(option.value)}
          onKeyDown={(event) => onKeyDown(event, index)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
