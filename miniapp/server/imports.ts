import { Hono } from 'hono';
import { z } from 'zod';

import type { EdgeEnv, RouteGroup } from '../../bot/http/app.ts';
import {
  type Core,
  isOpError,
  loadUpload,
  type Locale,
  OpError,
  saveUpload,
  t,
} from '../../core/index.ts';
import { reviewFile } from '../../core/chat/index.ts';
import { authenticate, type AuthOptions } from './auth.ts';
import { type ApiError, onApiError, readerOf } from './respond.ts';

/**
 * The upload's own body limit, for the edge (`largerBodies`): the statement reader takes files of
 * up to 20 MB, so its route accepts that plus room for the multipart framing, above the edge's
 * general 4 MiB. A larger body is a 413 with the reader's own sentence; a file just over 20 MB
 * that fits the framing room is refused by `read_statement` with the same one.
 */
const UPLOAD_MAX_BYTES = 20 * 1024 * 1024 + 256 * 1024;
export const IMPORT_UPLOAD_LIMITS = {
  '/api/import': { maxBytes: UPLOAD_MAX_BYTES, key: 'errors.statements.too_large' },
  '/api/import/': { maxBytes: UPLOAD_MAX_BYTES, key: 'errors.statements.too_large' },
} as const;

/** Ids, or `{id, …corrected fields}`: import_candidates validates them, its issues at `candidates.N.field`. */
const ImportBody = z.object({ candidates: z.array(z.unknown()).min(1).max(200) });

/**
 * The import review's routes, mounted at `/api/import`: what is not an op is only keeping the
 * uploaded file for its member while they review it (a `flows` row), so the browser never sends
 * it twice. Reading and importing are the catalog's `read_statement` and `import_candidates`,
 * invoked with `surface: 'web'` on the stored file.
 *
 * - `POST /api/import` (multipart, field `file`, up to 20 MB: `IMPORT_UPLOAD_LIMITS`): reads it, keeps it,
 *   answers `{ flowId, statement }`.
 * - `GET /api/import/:id`: the same statement again (read_statement answers a file read moments ago
 *   from its cache), for a reload of the review screen.
 * - `POST /api/import/:id` `{ candidates }` (ids, or `{id, name, amount, cycle, category…}` with
 *   corrections): import_candidates on the kept file; the op's answer with its audit id (for
 *   Undo), or its field errors.
 */
function isFile(value: unknown): value is Blob & { name?: string } {
  return typeof value === 'object' && value !== null && 'arrayBuffer' in value && 'size' in value;
}

/**
 * read_statement's "which currency is it in?" for a "$" statement, as the app asks it: the sentence
 * for a person who chooses on this screen (not the command line's), and the likely currencies,
 * the ones the household already pays in first; null for any other error.
 */
function currencyQuestion(
  error: unknown,
  locale: Locale,
): (ApiError & { currencies: string[] }) | null {
  if (!isOpError(error) || error.key !== 'errors.statementHints.which_currency') return null;
  const codes = String(error.params.codes ?? '')
    .split(',')
    .filter((code) => /^[A-Z]{3}$/.test(code));
  if (codes.length === 0) return null;
  return {
    error: error.code,
    message: t(locale, 'importReview.which_currency', error.params),
    currencies: codes,
  };
}

/** The ops' `currency` for a kept statement: the one its member named, or none (the file's, the household's). */
function currencyOf(upload: { currency?: string | undefined }): { currency?: string } {
  return upload.currency === undefined ? {} : { currency: upload.currency };
}

export function importRoutes(core: Core, auth: AuthOptions): RouteGroup {
  const group = new Hono<EdgeEnv>();
  group.onError(onApiError);

  const read = async (
    actor: Parameters<Core['invoke']>[1],
    upload: { file_name: string; content: string; currency?: string | undefined },
  ) =>
    (
      await core.invoke(
        'read_statement',
        actor,
        {
          file_name: upload.file_name,
          content: upload.content,
          encoding: 'base64',
          ...currencyOf(upload),
        },
        { surface: 'web' },
      )
    ).output;

  group.post('/', async (c) => {
    const { actor } = await authenticate(c, auth);
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch (error) {
      // A body past the upload limit fails while it is read: that 413, not "no file".
      if (error instanceof OpError) throw error;
      throw new OpError('invalid_input', 'web.import.no_file');
    }
    const file = form.file;
    // A part with a file name is a Blob (the web's File, from whichever fetch implementation parsed it).
    if (!isFile(file) || file.size === 0) throw new OpError('invalid_input', 'web.import.no_file');
    // `currency`: the answer to read_statement's "which currency" question for a "$" statement.
    const currency = typeof form.currency === 'string' ? form.currency.trim().toUpperCase() : '';
    const upload = {
      file_name: (file.name ?? 'statement').slice(0, 255) || 'statement',
      content: Buffer.from(await file.arrayBuffer()).toString('base64'),
      ...(currency === '' ? {} : { currency }),
    };
    let statement: Awaited<ReturnType<typeof read>>;
    try {
      statement = await read(actor, upload);
    } catch (error) {
      const question = currencyQuestion(error, readerOf(c));
      if (question) return c.json(question, 422);
      throw error;
    }
    const flowId = core.newId('upl');
    if (actor.householdId === null || actor.memberId === null)
      throw new OpError('forbidden', 'errors.no_household');
    await saveUpload(
      core.db,
      { id: flowId, householdId: actor.householdId, memberId: actor.memberId, upload },
      core.clock(),
    );
    return c.json({ flowId, statement });
  });

  const kept = async (c: Parameters<typeof authenticate>[0]) => {
    const { actor } = await authenticate(c, auth);
    const id = c.req.param('id') ?? '';
    // A web upload, or a statement sent in chat whose card's "Review in app" opened this screen
    // (with the names its card showed, when the assistant tidied them).
    const web =
      actor.memberId === null ? null : await loadUpload(core.db, id, actor.memberId, core.clock());
    const chat =
      web || actor.memberId === null
        ? null
        : await reviewFile(core.db, id, actor.memberId, core.clock());
    const upload = web ?? chat;
    if (!upload) throw new OpError('not_found', 'web.import.gone');
    return { actor, upload, id, names: chat?.names };
  };

  group.get('/:id', async (c) => {
    const { actor, upload, id, names } = await kept(c);
    // Only the fields this route touches (read_statement's output has more, passed on as it is).
    const statement: { candidates: Array<{ id: string; name: string; tracked: unknown }> } =
      await read(actor, upload);
    if (!names) return c.json({ flowId: id, statement });
    // A chat review's tidy names (core/chat/statementNames.ts) on its new candidates, as its card.
    const candidates = statement.candidates.map((candidate) => {
      const name = candidate.tracked ? undefined : names[candidate.id];
      return name === undefined ? candidate : { ...candidate, name };
    });
    return c.json({ flowId: id, statement: { ...statement, candidates } });
  });

  group.post('/:id', async (c) => {
    const { actor, upload, names } = await kept(c);
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new OpError('invalid_input', 'web.body.json');
    }
    const parsed = ImportBody.safeParse(body);
    if (!parsed.success) throw new OpError('invalid_input', 'web.import.choose');
    const result = await core.invoke(
      'import_candidates',
      actor,
      {
        file_name: upload.file_name,
        content: upload.content,
        encoding: 'base64',
        ...currencyOf(upload),
        candidates: parsed.data.candidates,
        ...(names ? { names } : {}),
      },
      { surface: 'web' },
    );
    return c.json({
      output: result.output,
      auditId: result.auditId,
      changes: result.changes.length,
    });
  });
  return group;
}
