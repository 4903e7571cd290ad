/**
 * What a person typed, from the text Slack delivers: Slack escapes `&`, `<` and `>` as HTML
 * entities and writes links, channels and special mentions in angle brackets
 * (`<https://netflix.com|Netflix.com>`, `<#C123|general>`, `<!here>`), so "AT&T" arrives as
 * "AT&amp;T" and a typed "Netflix.com" as a link. The engine must see the words as typed: a
 * subscription is named "AT&T" and "Netflix.com", not after Slack's markup. User mentions
 * (`<@U123>`) are kept as they are (the mention of the app itself is removed by the caller).
 * https://api.slack.com/reference/surfaces/formatting#escaping
 */
export function typedText(slack: string): string {
  return slack
    .replace(/<([^<>]*)>/g, (whole, inner: string) => {
      if (inner.startsWith('@')) return whole;
      const bar = inner.indexOf('|');
      const label = bar >= 0 ? inner.slice(bar + 1) : null;
      const target = bar >= 0 ? inner.slice(0, bar) : inner;
      if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
      if (target.startsWith('!')) return label ?? `@${target.slice(1).split('^')[0] ?? ''}`;
      return label ?? target.replace(/^mailto:/, '');
    })
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
