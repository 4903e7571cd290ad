import type { Knex } from 'knex';

/**
 * MCP confirmations (kind `confirmation`) and the assistant's proposals (kind `proposal`) become
 * pending changes of their surface (kinds `pending_mcp`, `pending_assistant`; core/pending), so a
 * card shown before the upgrade can still be confirmed, discarded or undone after it. The payload
 * shapes are written out here, as they were and as they are now: a migration never follows code
 * that changes later. A row that is not what its kind says is dropped (short-lived, and unreadable).
 */

interface FlowRow {
  id: string;
  kind: string;
  payload: string;
  used_at: string | null;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const texts = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
const STATUSES = ['pending', 'confirmed', 'discarded', 'failed'];
const CHANNELS = ['telegram', 'slack', 'web', 'terminal', 'mcp', 'cli', 'assistant', 'system'];

function parsed(row: FlowRow): Json | null {
  try {
    const value: unknown = JSON.parse(row.payload);
    return isObject(value) && typeof value.op === 'string' && isObject(value.args) ? value : null;
  } catch {
    return null;
  }
}

/** A proposal as a pending change of the assistant surface. */
function fromProposal(p: Json): Json {
  return {
    op: p.op,
    args: p.args,
    token_id: null,
    channel: CHANNELS.includes(String(p.channel)) ? p.channel : 'assistant',
    // No fingerprint (a row from before fingerprints): nothing can match it, so it is spent.
    changes: text(p.changes) ?? '',
    card: {
      title: text(p.title) ?? String(p.op),
      lines: texts(p.lines),
      destructive: p.destructive === true,
    },
    status: STATUSES.includes(String(p.status)) ? p.status : 'pending',
    audit_id: text(p.audit_id),
    decided_at: text(p.decided_at),
    undone_at: text(p.undone_at),
  };
}

/** A confirmation as a pending change of the MCP surface (its card was only ever in the reply). */
function fromConfirmation(p: Json, used: boolean): Json {
  return {
    op: p.op,
    args: p.args,
    token_id: text(p.token_id),
    channel: 'mcp',
    changes: text(p.changes) ?? '',
    card: { title: String(p.op), lines: [], destructive: false },
    status: used ? 'confirmed' : 'pending',
    audit_id: null,
    decided_at: null,
    undone_at: null,
  };
}

async function convert(
  knex: Knex,
  from: string,
  to: string,
  map: (payload: Json, row: FlowRow) => Json,
): Promise<void> {
  const rows = (await knex('flows')
    .where({ kind: from })
    .select('id', 'kind', 'payload', 'used_at')) as FlowRow[];
  for (const row of rows) {
    const payload = parsed(row);
    if (payload === null) await knex('flows').where({ id: row.id }).delete();
    else
      await knex('flows')
        .where({ id: row.id })
        .update({ kind: to, payload: JSON.stringify(map(payload, row)) });
  }
}

export async function up(knex: Knex): Promise<void> {
  await convert(knex, 'proposal', 'pending_assistant', fromProposal);
  await convert(knex, 'confirmation', 'pending_mcp', (p, row) =>
    fromConfirmation(p, row.used_at !== null),
  );
}

export async function down(knex: Knex): Promise<void> {
  await convert(knex, 'pending_assistant', 'proposal', (p) => {
    const card = isObject(p.card) ? p.card : {};
    return {
      op: p.op,
      args: p.args,
      title: text(card.title) ?? String(p.op),
      lines: texts(card.lines),
      destructive: card.destructive === true,
      channel: p.channel,
      status: p.status,
      audit_id: text(p.audit_id),
      decided_at: text(p.decided_at),
      undone_at: text(p.undone_at),
      changes: text(p.changes) ?? '',
    };
  });
  await convert(knex, 'pending_mcp', 'confirmation', (p) => ({
    op: p.op,
    args: p.args,
    token_id: text(p.token_id),
    changes: text(p.changes) ?? '',
  }));
  // Other surfaces' pending changes did not exist before: nothing reads them.
  await knex('flows').whereIn('kind', ['pending_web', 'pending_chat', 'pending_cli']).delete();
}
