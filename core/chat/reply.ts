import type { Action } from './actions.ts';
import { type Owner, saveButtons } from './flows.ts';
import { buttonKey, signActions } from './signedButtons.ts';
import type { Button, Card, Reply } from './types.ts';
import type { Database } from '../store/connection.ts';

type Draft =
  { kind: 'action'; label: string; action: Action } | Exclude<Button, { kind: 'action' }>;

/**
 * Builds one reply. Action buttons are collected first; when they all fit in a signed payload
 * (signedButtons.ts) the message writes nothing, else they are stored together in one `flows`
 * row, so a message costs at most one insert however many buttons it has.
 */
export class ReplyBuilder {
  private text: string[] = [];
  private card: Card | undefined;
  private rows: Draft[][] = [];

  say(line: string): this {
    this.text.push(line);
    return this;
  }

  setCard(card: Card): this {
    this.card = card;
    return this;
  }

  row(...buttons: Draft[]): this {
    const kept = buttons.filter(Boolean);
    if (kept.length > 0) this.rows.push(kept);
    return this;
  }

  action(label: string, action: Action): Draft {
    return { kind: 'action', label, action };
  }

  url(label: string, url: string): Draft {
    return { kind: 'url', label, url };
  }

  webapp(label: string, url: string): Draft {
    return { kind: 'webapp', label, url };
  }

  get hasActions(): boolean {
    return this.rows.some((row) => row.some((b) => b.kind === 'action'));
  }

  async build(
    db: Database,
    owner: Owner,
    now: Date,
    newId: (prefix: string) => string,
  ): Promise<Reply> {
    const actions = this.rows.flatMap((row) =>
      row.flatMap((b) => (b.kind === 'action' ? [b.action] : [])),
    );
    let payloads: string[] = [];
    if (actions.length > 0) {
      const signed = signActions(await buttonKey(db), owner, actions, now);
      if (signed) payloads = signed;
      else {
        const flowId = await saveButtons(db, owner, actions, now, newId('btn'));
        payloads = actions.map((_, i) => `${flowId}.${i}`);
      }
    }
    let next = 0;
    const buttons: Button[][] = this.rows.map((row) =>
      row.map((b): Button => {
        if (b.kind !== 'action') return b;
        return { kind: 'action', label: b.label, payload: payloads[next++] ?? '' };
      }),
    );
    const reply: Reply = {};
    if (this.text.length > 0) reply.text = this.text.join('\n');
    if (this.card) reply.card = this.card;
    if (buttons.length > 0) reply.buttons = buttons;
    return reply;
  }
}
