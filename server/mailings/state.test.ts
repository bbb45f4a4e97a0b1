// The mailing state machine: what each action is allowed from, and where it leads.
import { describe, expect, it } from 'vitest';
import { MAILING_STATES } from '../../contract/mailings';
import { canApply, nextState } from './state';

describe('mailing states', () => {
  it('goes draft → sending ⇄ paused → finished, and can be cancelled until it ends', () => {
    expect(nextState('start', 'draft')).toBe('sending');
    expect(nextState('schedule', 'draft')).toBe('scheduled');
    expect(nextState('start', 'scheduled')).toBe('sending');
    expect(nextState('pause', 'sending')).toBe('paused');
    expect(nextState('resume', 'paused')).toBe('sending');
    expect(nextState('finish', 'sending')).toBe('finished');
    for (const from of ['draft', 'scheduled', 'sending', 'paused'] as const) expect(nextState('cancel', from)).toBe('cancelled');
  });

  it('refuses what makes no sense', () => {
    expect(nextState('pause', 'paused')).toBeNull();
    expect(nextState('resume', 'sending')).toBeNull();
    expect(nextState('start', 'sending')).toBeNull();
    expect(nextState('start', 'finished')).toBeNull();
    expect(nextState('cancel', 'finished')).toBeNull();
    expect(nextState('cancel', 'cancelled')).toBeNull();
    expect(canApply('edit', 'sending')).toBe(false);
    expect(canApply('edit', 'scheduled')).toBe(true);
    expect(canApply('unsend', 'finished')).toBe(true);
    expect(canApply('unsend', 'sending')).toBe(false);
  });

  it('never leaves a final state', () => {
    for (const action of ['edit', 'schedule', 'start', 'pause', 'resume', 'cancel', 'finish'] as const) {
      expect(nextState(action, 'finished')).toBeNull();
      expect(nextState(action, 'cancelled')).toBeNull();
    }
    expect(MAILING_STATES).toContain('finished');
  });
});
