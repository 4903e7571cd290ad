import { describe, expect, it } from 'vitest';

import { typedText } from '../../../bot/slack/text.ts';

/** Slack's message text back to what the person typed (bot/slack/text.ts). */
describe('typedText', () => {
  it('undoes Slack’s escaping of &, < and >', () => {
    expect(typedText('add AT&amp;T 30 USD monthly 3')).toBe('add AT&T 30 USD monthly 3');
    expect(typedText('a &lt;b&gt; &amp;amp;')).toBe('a <b> &amp;');
  });

  it('reads a link as what was typed: its label, or the address alone', () => {
    expect(typedText('add <http://Netflix.com|Netflix.com> 15.99 EUR monthly 5')).toBe(
      'add Netflix.com 15.99 EUR monthly 5',
    );
    expect(typedText('see <https://example.com/a?b=1&amp;c=2>')).toBe(
      'see https://example.com/a?b=1&c=2',
    );
    expect(typedText('mail <mailto:ana@example.com|ana@example.com>')).toBe('mail ana@example.com');
  });

  it('names channels and special mentions as people see them, and keeps user mentions', () => {
    expect(typedText('in <#C0123|general> and <#C0456>')).toBe('in #general and #C0456');
    expect(typedText('<!here> <!channel> <!subteam^S1|@family>')).toBe('@here @channel @family');
    expect(typedText('ask <@U0BOT> please')).toBe('ask <@U0BOT> please');
  });
});
