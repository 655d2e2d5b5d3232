import { describe, expect, it } from 'vitest';
import { slackCommandText, slackResponseUrl } from '../src/slack-text.ts';

describe('slackCommandText', () => {
  // Slack sends &, < and > escaped (https://api.slack.com/reference/surfaces/formatting#escaping).
  it.each([
    ['R&amp;D', 'R&D'],
    ['&lt;@U123&gt; and &lt;!channel&gt;', '<@U123> and <!channel>'],
    ['&amp;lt; is how one writes &lt;', '&lt; is how one writes <'],
    ['&quot;untouched&quot; &#39; &nbsp;', '&quot;untouched&quot; &#39; &nbsp;'],
    ['how many nodes for 175B', 'how many nodes for 175B'],
  ])('%j → %j', (sent, typed) => {
    expect(slackCommandText(sent)).toBe(typed);
  });
});

describe('slackResponseUrl', () => {
  it.each([
    ['https://hooks.slack.com/commands/T1/2/abc', 'https://hooks.slack.com/commands/T1/2/abc'],
    ['http://hooks.slack.com/commands/T1/2/abc', undefined],
    ['https://hooks.slack.com:8443/commands/T1/2/abc', undefined],
    ['https://user@hooks.slack.com/commands/T1/2/abc', undefined],
    ['https://hooks.slack.com.evil.example/commands', undefined],
    ['https://evil.example/?https://hooks.slack.com/', undefined],
    ['', undefined],
    [null, undefined],
  ])('%j → %j', (value, url) => {
    expect(slackResponseUrl(value)).toBe(url);
  });
});
