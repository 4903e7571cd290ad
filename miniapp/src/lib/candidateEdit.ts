import type { ApiError } from './api.ts';
import type { Statement } from './types.ts';

type Candidate = Statement['candidates'][number];

/**
 * The import review's fields of one new candidate, as its inputs hold them (text), and what
 * import_candidates is sent for it: its id alone when nothing changed, else `{id, …changed}`.
 * Validation is the op's (create_subscription's schemas): its issues, at
 * `candidates.<index>.<field>`, are put back under the candidate's own fields.
 */
export interface CandidateForm {
  name: string;
  amount: string;
  every: string;
  unit: Candidate['cycle']['unit'];
  category: string;
}

export const UNITS = ['day', 'week', 'month', 'year'] as const;

export function candidateForm(c: Candidate): CandidateForm {
  return {
    name: c.name,
    amount: c.amount,
    every: String(c.cycle.every),
    unit: c.cycle.unit,
    category: '',
  };
}

/** What import_candidates is sent for a chosen candidate; tracked ones are never edited. */
export function choiceOf(
  c: Candidate,
  f: CandidateForm | undefined,
): string | Record<string, unknown> {
  if (!f || c.tracked) return c.id;
  const before = candidateForm(c);
  const edits: Record<string, unknown> = {};
  if (f.name.trim() !== before.name) edits.name = f.name.trim();
  const amount = f.amount.trim().replace(',', '.');
  if (amount !== before.amount) edits.amount = amount;
  if (f.unit !== before.unit || f.every.trim() !== before.every) {
    const every = f.every.trim();
    edits.cycle = { unit: f.unit, every: /^\d+$/.test(every) ? Number(every) : every };
  }
  if (f.category.trim()) edits.category = f.category.trim();
  return Object.keys(edits).length === 0 ? c.id : { id: c.id, ...edits };
}

/** The op's issues by candidate id and field (`name`, `amount`, `cycle`, `category`). */
export function candidateErrors(
  error: ApiError,
  sent: readonly string[],
): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const issue of error.issues) {
    const [head, index, field] = issue.path.map(String);
    const id = head === 'candidates' && index !== undefined ? sent[Number(index)] : undefined;
    if (id === undefined) continue;
    const key = field ?? 'row';
    out[id] ??= {};
    out[id][key] ??= issue.message;
  }
  return out;
}
