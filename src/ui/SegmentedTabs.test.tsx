// The shared segmented control: tabs a screen reader announces as such, with the chosen one
// selected, one tab stop, and the arrow keys (plus Home and End) moving between tabs and choosing.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { SegmentedTabs } from './SegmentedTabs';

afterEach(cleanup);

type Period = 'week' | 'month' | 'all';
const PERIODS = [
  { value: 'week', label: '7 days' },
  { value: 'month', label: '30 days' },
  { value: 'all', label: 'All time' },
] as const;

function Periods({ chosen }: { chosen: Period[] }) {
  const [period, setPeriod] = useState<Period>('month');
  return (
    <SegmentedTabs
      label="Period"
      options={PERIODS}
      value={period}
      onChange={(value) => {
        chosen.push(value);
        setPeriod(value);
      }}
    />
  );
}

const selected = () => screen.getAllByRole('tab').filter((tab) => tab.getAttribute('aria-selected') === 'true').map((tab) => tab.textContent);
const tabStops = () => screen.getAllByRole('tab').filter((tab) => tab.tabIndex === 0).map((tab) => tab.textContent);

describe('segmented tabs', () => {
  it('is a named tablist whose chosen tab is selected and the one tab stop; a click chooses', () => {
    const chosen: Period[] = [];
    render(<Periods chosen={chosen} />);
    expect(screen.getByRole('tablist', { name: 'Period' })).toBeTruthy();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['7 days', '30 days', 'All time']);
    expect(selected()).toEqual(['30 days']);
    expect(tabStops()).toEqual(['30 days']);
    act(() => screen.getByRole('tab', { name: 'All time' }).click());
    expect(selected()).toEqual(['All time']);
    expect(tabStops()).toEqual(['All time']);
    expect(chosen).toEqual(['all']);
  });

  it('moves with the arrow keys (wrapping round), Home and End, focus following the choice', () => {
    const chosen: Period[] = [];
    render(<Periods chosen={chosen} />);
    const tab = (name: string) => screen.getByRole('tab', { name });
    tab('30 days').focus();
    fireEvent.keyDown(tab('30 days'), { key: 'ArrowRight' });
    expect(selected()).toEqual(['All time']);
    expect(document.activeElement).toBe(tab('All time'));
    fireEvent.keyDown(tab('All time'), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(tab('7 days'));
    fireEvent.keyDown(tab('7 days'), { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(tab('All time'));
    fireEvent.keyDown(tab('All time'), { key: 'Home' });
    expect(document.activeElement).toBe(tab('7 days'));
    fireEvent.keyDown(tab('7 days'), { key: 'End' });
    expect(selected()).toEqual(['All time']);
    expect(tabStops()).toEqual(['All time']);
    expect(chosen).toEqual(['all', 'week', 'all', 'week', 'all']);
  });
});
