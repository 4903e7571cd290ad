import { date, money, percent } from './format.ts';
import { locale, t } from './i18n.ts';
import type { Out } from './types.ts';

/**
 * A finding as a screen writes it: get_context's "needs attention" items (`note`) and find_savings'
 * findings (`explanation` as the note), each with its facts.
 */
export interface AttentionItem {
  kind: string;
  note: string;
  facts: Out<'get_context'>['attention']['items'][number]['facts'];
}

/** Names as the reader lists them: "Netflix and Netflix Kids", "Netflix y Netflix Kids". */
function listOf(names: readonly string[]): string {
  return new Intl.ListFormat(locale.value, { type: 'conjunction' }).format(names);
}

/**
 * The line of a finding (the Overview's "Needs attention", Insights' "Ways to save"), written from its facts in the reader's formats (money as
 * every other amount of the app, "€119.88" / "119,88 €"; dates as the app writes them), not the
 * op's finished sentence, which speaks the core's money format ("119,88 EUR"). A kind the app has
 * no text for shows the op's sentence.
 */
export function attentionText(item: AttentionItem): string {
  const { facts } = item;
  const name = facts.names[0] ?? '';
  const cash = (amount: string | null): string => money(amount, facts.currency ?? '');
  // A trial ends within the week (its weekday, as the notice lines say it); the other dates are past.
  const day = date(facts.date, item.kind === 'trial_converting' ? 'weekday' : 'medium');
  switch (item.kind) {
    case 'trial_converting':
      return t('attention.trial_converting', { name, date: day, yearly: cash(facts.yearly) });
    case 'duplicate':
      return t('attention.duplicate', { names: listOf(facts.names), count: facts.names.length });
    case 'price_increase':
      return t(
        facts.percent === null ? 'attention.price_increase_from_zero' : 'attention.price_increase',
        {
          name,
          old: cash(facts.old_amount),
          new: cash(facts.new_amount),
          date: day,
          percent: facts.percent === null ? '' : percent(facts.percent),
          yearly: cash(facts.yearly),
        },
      );
    case 'yearly_vs_monthly':
      return t('attention.yearly_vs_monthly', { name, date: day, yearly: cash(facts.yearly) });
    default:
      return item.note;
  }
}
