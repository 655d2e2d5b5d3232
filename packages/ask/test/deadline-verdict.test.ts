import { describe, expect, it } from 'vitest';
import { ask } from '../src/answer/answer.ts';
import { daysWithinDeadline } from '../src/answer/deadline-verdict.ts';

describe('a deadline met by a hair shows the time within it, never rounded up to it', () => {
  it('1.957 days against 2 days is "1.96 days", and a time the rounding shows within is as formatDays writes it', () => {
    expect(daysWithinDeadline(1.957, 2)).toBe('1.96 days');
    expect(daysWithinDeadline(1.5, 2)).toBe('1.5 days');
    expect(daysWithinDeadline(29.97, 30)).toBe('29.97 days');
  });
  it('just under a day\'s deadline, where formatDays rounds 23.95 hours up to "1 day", the time is shown within it', () => {
    // Review: the guard became "under 1 day" when formatDays took formatDuration's hours, and 0.998 days read "1 day".
    expect(daysWithinDeadline(0.998, 1)).toBe('0.998 days');
    expect(daysWithinDeadline(0.9999, 1)).toBe('0.9999 days');
    // Said in hours, the figure is not the deadline's: as formatDays writes it.
    expect(daysWithinDeadline(0.9, 1)).toBe('21.6 hours');
  });
  it('"how many H100 nodes … in 2 days": the headline says under 2 days beside "(deadline 2 days)"', () => {
    const a = ask('how many H100 nodes to train llama3-8b on 100B tokens in 2 days', { publicUrl: null });
    expect(a.headline).toMatch(/tokens in 1\.9\d+ days \(deadline 2 days\)$/);
  });
});
