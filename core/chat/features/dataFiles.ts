import { OpError } from '../../errors/index.ts';
import { defineFeature } from '../feature.ts';
import { loadAwaiting, setAwaiting, takeAwaiting } from '../flows.ts';
import type { Turn } from '../turn.ts';
import type { IncomingFile, ReplyFile } from '../types.ts';
import { proposeChange } from './pendingCard.ts';
import { readSentFile } from './statements.ts';

/**
 * /export and /import, with no model. /export sends the household as two files, export_data's
 * JSON (everything, for import_data) and CSV (subscriptions, for a spreadsheet); each channel
 * delivers `Reply.files` its own way. /import takes a sent Exhale or Wallos export (a file with
 * the caption /import, or the next file after /import): import_data's dry run becomes a card with
 * Confirm and Discard through the pending-change service, then Undo. A bank statement sent after
 * /import goes to the statement review, as any statement does.
 */

/** import_data's own limit on a document. */
const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

interface Exported {
  filename: string;
  media_type: string;
  subscriptions: number;
  document: unknown;
  csv: string | null;
}

async function exportFiles(turn: Turn): Promise<void> {
  const files: ReplyFile[] = [];
  let count = 0;
  for (const format of ['json', 'csv'] as const) {
    const out = (await turn.withTyping(() => turn.invoke('export_data', { format })))
      .output as Exported;
    count = out.subscriptions;
    const text = format === 'json' ? `${JSON.stringify(out.document, null, 2)}\n` : (out.csv ?? '');
    files.push({
      name: out.filename,
      mediaType: out.media_type,
      bytes: new Uint8Array(Buffer.from(text, 'utf8')),
    });
  }
  const reply = turn.reply().setCard({
    title: `📦 ${turn.t(count === 1 ? 'manage.export.title_one' : 'manage.export.title', { count })}`,
    lines: files.map((f) => `• ${f.name}`),
  });
  reply.say(turn.t('manage.export.hint'));
  const built = await reply.build(turn.db, turn.owner, turn.now, turn.core.newId);
  await turn.channel.send({ ...built, files });
}

/** /import: asks for the file; the next file this member sends here is the import. */
async function askImport(turn: Turn): Promise<void> {
  await setAwaiting(turn.db, turn.conversationKey, turn.owner, { t: 'import_file' }, turn.now);
  await turn.say(turn.t('manage.import.ask'));
}

/**
 * Whether a sent file is meant for /import: its caption is the command, or /import asked for
 * it (that question is then answered and forgotten).
 */
export async function wantsImport(turn: Turn, caption: string): Promise<boolean> {
  if (/^\/import(@\w+)?\b/i.test(caption.trim())) return true;
  const open = await loadAwaiting(turn.db, turn.conversationKey, turn.now);
  if (open?.t !== 'import_file') return false;
  await takeAwaiting(turn.db, turn.conversationKey, turn.now);
  return true;
}

function looksLikeJson(name: string, bytes: Uint8Array): boolean {
  if (/\.json$/i.test(name)) return true;
  const head = Buffer.from(bytes.subarray(0, 64))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return head.startsWith('{') || head.startsWith('[');
}

/**
 * A file sent for /import. An export (JSON) is previewed as import_data's dry run; anything else
 * is read as a bank statement (the statement review), which refuses what it cannot read.
 */
export async function importSentFile(
  turn: Turn,
  file: IncomingFile,
  log: (message: string, error?: unknown) => void,
): Promise<void> {
  const name = (file.name ?? 'file').slice(0, 120);
  if (file.size !== null && file.size > MAX_IMPORT_BYTES && /\.json$/i.test(name))
    throw new OpError('too_large', 'manage.import.too_large', { max: '5 MB' });
  const data = await turn.withTyping(() => file.download());
  if (!looksLikeJson(name, data)) {
    const known: IncomingFile = {
      ...file,
      size: data.byteLength,
      download: () => Promise.resolve(data),
    };
    const outcome = await readSentFile(turn, known, { assistantOn: false, log });
    if (outcome.kind === 'other')
      await turn.update(
        outcome.progress,
        turn.reply().say(`⚠️ ${outcome.sentence ?? turn.t('manage.import.unknown', { name })}`),
      );
    return;
  }
  if (data.byteLength > MAX_IMPORT_BYTES)
    throw new OpError('too_large', 'manage.import.too_large', { max: '5 MB' });
  const document = Buffer.from(data)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  await proposeChange(turn, 'import_data', { document }, null, (output) => {
    const out = output as { format: string; created: number; skipped: number };
    return [
      turn.t(`manage.import.format.${out.format}`, { name }),
      turn.t(out.created === 1 ? 'manage.import.created_one' : 'manage.import.created', {
        count: out.created,
      }),
      ...(out.skipped > 0 ? [turn.t('manage.import.skipped', { count: out.skipped })] : []),
    ];
  });
}

export const dataFilesFeature = defineFeature({
  name: 'dataFiles',
  commands: [
    { command: 'export', op: 'export_data', place: 'private', newcomer: false, run: exportFiles },
    { command: 'import', op: 'import_data', place: 'private', newcomer: false, run: askImport },
  ],
  answers: {
    import_file: async (turn, awaiting) => {
      // Text instead of a file: the question stays open, asked again.
      await setAwaiting(turn.db, turn.conversationKey, turn.owner, awaiting, turn.now);
      await turn.say(turn.t('manage.import.ask'));
    },
  },
});
