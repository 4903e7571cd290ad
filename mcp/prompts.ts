import {
  completable,
  type GetPromptResult,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';

import { CONTEXT_URI } from './resources.ts';
import { identified } from './results.ts';
import {
  type Actor,
  addDays,
  addMonths,
  type Core,
  isValidDate,
  localDate,
  opsFor,
  searchKey,
  t,
} from '../core/index.ts';

/**
 * Ready-made tasks a person can start from their client. Each is a user message in the member's
 * language pointing at the briefing and at the tools (of those this token has) that do the job.
 */
interface PromptSpec {
  name: string;
  /** Tools that help, named if the token has them. */
  tools: readonly string[];
  args: (complete: Completions) => z.ZodObject;
  /** Parameters for the text, from the arguments (defaults filled in). */
  params: (
    args: Record<string, string | undefined>,
    today: string,
    words: { all: string; unknown: string },
  ) => Record<string, string>;
}

interface Completions {
  months: (value: string) => Promise<string[]>;
  dates: (value: string) => Promise<string[]>;
  categories: (value: string) => Promise<string[]>;
}

const FORMATS = ['csv', 'ofx', 'qfx', 'pdf', 'image'] as const;

export const PROMPTS: readonly PromptSpec[] = [
  {
    name: 'monthly_review',
    tools: [
      'get_totals',
      'get_upcoming',
      'list_charges',
      'mark_charge_paid',
      'skip_charge',
      'list_price_changes',
      'list_subscriptions',
    ],
    args: (c) =>
      z.object({
        month: completable(
          z.string().regex(/^\s*(\d{4}-(0[1-9]|1[0-2]))?\s*$/, 'A month as YYYY-MM.'),
          (v) => c.months(v ?? ''),
        )
          .optional()
          .describe('The month to review, YYYY-MM; default: the current month.'),
      }),
    params: (args, today) => ({ month: args.month ?? today.slice(0, 7) }),
  },
  {
    name: 'find_savings',
    tools: [
      'find_savings',
      'get_totals',
      'list_subscriptions',
      'list_categories',
      'list_price_changes',
      'pause_subscription',
      'cancel_subscription',
    ],
    args: (c) =>
      z.object({
        category: completable(z.string(), (v) => c.categories(v ?? ''))
          .optional()
          .describe('Only look at this category; default: all.'),
      }),
    params: (args, _today, words) => ({ category: args.category ?? words.all }),
  },
  {
    name: 'audit_price_increases',
    tools: [
      'list_price_changes',
      'list_charges',
      'get_subscription',
      'update_subscription',
      'find_savings',
    ],
    args: (c) =>
      z.object({
        since: completable(
          z
            .string()
            .refine((v) => v.trim() === '' || isValidDate(v.trim()), 'A real date as YYYY-MM-DD.'),
          (v) => c.dates(v ?? ''),
        )
          .optional()
          .describe('Look at increases since this date, YYYY-MM-DD; default: a year ago.'),
      }),
    params: (args, today) => ({ since: args.since ?? addMonths(today, -12) }),
  },
  {
    name: 'import_statement',
    // The model-free reader first (read_statement, then import_candidates with the chosen ids),
    // then reconcile_statement and mark_charges_paid with its to_mark; the rest for what the
    // reader cannot read (a photo the agent reads itself).
    tools: [
      'read_statement',
      'import_candidates',
      'reconcile_statement',
      'mark_charges_paid',
      'list_subscriptions',
      'create_subscription',
      'mark_charge_paid',
    ],
    args: () =>
      z.object({
        format: completable(
          z
            .string()
            .refine(
              (v) =>
                v.trim() === '' || (FORMATS as readonly string[]).includes(v.trim().toLowerCase()),
              `One of ${FORMATS.join(', ')}.`,
            ),
          (v) => FORMATS.filter((f) => f.startsWith((v ?? '').toLowerCase())),
        )
          .optional()
          .describe("The statement's format: csv, ofx, qfx, pdf or image."),
      }),
    params: (args, _today, words) => ({ format: args.format ?? words.unknown }),
  },
  {
    name: 'clean_up_categories',
    tools: [
      'list_categories',
      'merge_categories',
      'update_category',
      'delete_category',
      'list_tags',
      'bulk_update_subscriptions',
      'list_subscriptions',
    ],
    args: (c) =>
      z.object({
        focus: completable(z.string(), (v) => c.categories(v ?? ''))
          .optional()
          .describe('Start with this category; default: all of them.'),
      }),
    params: (args, _today, words) => ({ focus: args.focus ?? words.all }),
  },
];

/** Registers the prompts with completion of their arguments. */
export function registerPrompts(server: McpServer, core: Core, base: Actor): void {
  const available = new Set(opsFor(core.catalog, base, 'mcp').map((op) => op.name));
  let zone: Promise<string> | undefined;
  // Today in the household's time zone, as every date Exhale speaks.
  const today = async () => {
    zone ??= (
      core.db
        .knex('households')
        .where({ id: base.householdId ?? '' })
        .first('time_zone') as Promise<{ time_zone: string } | undefined>
    )
      .then((row) => row?.time_zone ?? 'UTC')
      .catch(() => 'UTC');
    return localDate(core.clock(), await zone);
  };
  const completions: Completions = {
    months: async (value) => {
      const now = await today();
      return Array.from({ length: 13 }, (_, i) => addMonths(now, -i).slice(0, 7)).filter((m) =>
        m.startsWith(value),
      );
    },
    dates: async (value) => {
      const now = await today();
      return [addDays(now, -30), ...[3, 6, 12, 24].map((n) => addMonths(now, -n))].filter((d) =>
        d.startsWith(value),
      );
    },
    categories: async (value) => {
      if (!available.has('list_categories')) return [];
      try {
        const { output } = await core.invoke('list_categories', base, {}, { surface: 'mcp' });
        const items = (output as { items?: Array<{ name: string }> }).items ?? [];
        return items.map((c) => c.name).filter((n) => searchKey(n).startsWith(searchKey(value)));
      } catch {
        return [];
      }
    },
  };
  const locale = base.locale;
  for (const spec of PROMPTS) {
    const helpful = spec.tools.filter((name) => available.has(name));
    server.registerPrompt(
      spec.name,
      {
        title: t(locale, `mcp.prompt.${spec.name}.title`),
        description: t(locale, `mcp.prompt.${spec.name}.description`),
        argsSchema: spec.args(completions),
      },
      async (raw: Record<string, unknown>, ctx: ServerContext): Promise<GetPromptResult> => {
        const args = Object.fromEntries(
          Object.entries(raw).map(([k, v]) => [
            k,
            typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined,
          ]),
        );
        const text = t(
          locale,
          `mcp.prompt.${spec.name}.text`,
          spec.params(args, await today(), {
            all: t(locale, 'mcp.prompt.all'),
            unknown: t(locale, 'mcp.prompt.unknown'),
          }),
        );
        const tools =
          helpful.length > 0
            ? `\n\n${t(locale, 'mcp.prompt.tools', { tools: helpful.join(', ') })}`
            : '';
        return identified<GetPromptResult>(ctx, {
          description: t(locale, `mcp.prompt.${spec.name}.description`),
          messages: [
            {
              role: 'user',
              content: {
                type: 'resource_link',
                uri: CONTEXT_URI,
                name: 'context',
                mimeType: 'application/json',
              },
            },
            { role: 'user', content: { type: 'text', text: `${text}${tools}` } },
          ],
        });
      },
    );
  }
}
