import { describe, expect, it } from 'vitest';
import type { NodesResponseJson } from '@trainplan/protocol';
import { ask } from '../src/answer/answer.ts';
import { compactCount, formatDays } from '../src/format.ts';

type NodesOk = Extract<NodesResponseJson, { ok: true }>;

/**
 * The widget has no uptime: a link from an answer at an uptime below 100% opens the plan at full uptime, so the answer
 * says so beside the link, with the days and GPU-hours the widget will show (answer/uptime-note.ts widgetUptimeNote). QA:
 * 513 nodes at 90% uptime, where the widget showed 53.1 days and 5.23M GPU-hours, and its own search 459 nodes.
 */
const QUESTION = 'how many H100 nodes to train llama3-8b on 2T tokens in 30 days at 90% uptime';

describe('a widget link of a plan at an uptime below 100% says the widget plans at full uptime', () => {
  it('the note is last, next to the link, with the ideal days and GPU-hours (the wall clock\'s × 0.9); none without a link or an uptime below 100%', () => {
    const a = ask(QUESTION, { publicUrl: 'https://trainplan.example' });
    const r = a.data as NodesOk;
    expect(a.widgetUrl).toBeDefined();
    expect(a.notes.at(-1)).toBe(`The widget link plans at full uptime (the widget has no uptime setting): ${formatDays(r.days * 0.9)} and `
      + `${compactCount(r.gpuHours * 0.9)} GPU-hours there, the ideal; the figures here are on the wall clock at 90% uptime, and a search there `
      + 'for the deadline (30 days) sizes the cluster at full uptime, so it may take fewer nodes than here.');
    // No link (publicUrl null), no note.
    expect(ask(QUESTION, { publicUrl: null }).notes.join(' ')).not.toMatch(/widget/);
    expect(ask(QUESTION.replace(' at 90% uptime', ''), { publicUrl: 'https://trainplan.example' }).notes.join(' ')).not.toMatch(/widget/);
  });
});
