/**
 * The rules every tool shares, said once here instead of in each description. Sent as the
 * server's instructions; written for models.
 */
export const INSTRUCTIONS = `Exhale tracks one household's subscriptions and recurring bills. You act for one member, through their token, and see exactly what they see.

Start by reading the resource exhale://context: the household (currency, time zone, language), its members, and what is coming up.

Rules for every tool:
- Amounts are decimal strings in the currency's units, such as "15.99" or "1200" for JPY; never numbers. Currencies are ISO 4217 codes such as "EUR". Leaving a currency out means the household's (or the subscription's) currency.
- Dates are calendar dates "YYYY-MM-DD" in the household's time zone; timestamps (created_at and the like) are UTC ISO instants.
- A subscription has a price per cycle (every N days, weeks, months or years) and a first charge date. Its charges form a series: the first charge date, then one per cycle. Monthly and yearly series keep the first charge's day of month (the 31st falls on the last day of shorter months). A charge is identified by its subscription_id and due_date; it is expected until marked paid or skipped.
- Another member's private subscription does not exist for you ("not found"); do not guess around it. Counts of subscriptions in any result cover only the ones you can see.
- Ids come from the list and get tools (list_subscriptions, list_categories…); never make one up. Where a tool takes a category, payment method or tag by id or by name, give one of the two.
- An update changes only the fields given; null clears an optional field. Names of categories, payment methods and tags are unique in the household regardless of case.
- A list tool that takes limit and offset returns one page and the total.
- Every change is recorded in the activity list with your client's name and can be undone: call undo with the activity id a change returns (or list_activity to find it).
- Confirmation: unless your token is trusted, a destructive change or one that moves money needs the person's confirmation. If your client supports elicitation, they are asked directly. Otherwise the tool applies nothing and returns a preview with a confirmation_id: show the person what would change, and only when they agree call confirm with that confirmation_id. It applies once, exactly as previewed, and expires after 10 minutes. Never confirm on the person's behalf.
- Errors come back as tool results with isError and a sentence saying what to fix; fix the arguments and retry rather than giving up.
- A tool's result is in structuredContent and, as JSON, in its text (a change's text first says how to undo it; list_activity finds it too). Output schemas outline a result: its fields with their types, and the fields of the records inside it (a subscription, a charge, a category…); an object shown only by its type holds what the result shows. "Shaped as X's output" (or "one of X's items") means the fields tool X's output schema lists there; an object whose schema lists no required fields always has every field it lists (null when empty).`;

/** Sentences of op descriptions that the rules above already state for every tool. */
const SHARED_SENTENCES = [
  'Can be undone from the activity list.',
  'Names are unique regardless of case.',
];

/** An op's description as its tool shows it: without the sentences the instructions state once. */
export function toolDescription(description: string): string {
  let text = description;
  for (const sentence of SHARED_SENTENCES) text = text.replace(` ${sentence}`, '');
  return text;
}

/**
 * Field descriptions of the shared schemas (`Amount`, `Currency`, `IsoDate` in
 * core/domain/schemas.ts) that the rules above state once: left out of every input schema.
 */
export const SHARED_FIELD_DESCRIPTIONS: ReadonlySet<string> = new Set([
  'A non-negative decimal string in the currency\'s units, such as "15.99" (never a number).',
  'ISO 4217 code in upper case, such as "EUR".',
  "A calendar date YYYY-MM-DD in the household's time zone.",
  // Said by the rule about a subscription's price per cycle and its series.
  "Billing cycle: every N days, weeks, months or years. Monthly and yearly keep the first charge's day of month.",
  // "Leaving a currency out means the household's (or the subscription's) currency."
  "Default: the household's currency.",
  "Default: the subscription's currency.",
  "Default: the subscription's.",
]);
