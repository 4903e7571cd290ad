import { z } from 'zod';

import type { Database } from '../connection.ts';
import { defineFlow } from './flows.ts';

/**
 * A statement uploaded to the web app, kept while its member reviews it (one `flows` row, kind
 * `web_upload`): the file as sent, so import_candidates reads exactly what read_statement read,
 * without the browser sending it again. Only its member can read it back.
 */
export const UPLOAD_TTL_MS = 24 * 3_600_000;

const UploadSchema = z.object({
  file_name: z.string(),
  content: z.string(),
  /** The currency its member named for a "$" statement, passed to both ops. */
  currency: z.string().optional(),
});
export type Upload = z.infer<typeof UploadSchema>;

const UPLOADS = defineFlow({ kind: 'web_upload', ttlMs: UPLOAD_TTL_MS, payload: UploadSchema });

export async function saveUpload(
  db: Database,
  entry: { id: string; householdId: string; memberId: string; upload: Upload },
  now: Date,
): Promise<void> {
  await UPLOADS.save(db.knex, {
    id: entry.id,
    householdId: entry.householdId,
    memberId: entry.memberId,
    payload: entry.upload,
    now,
  });
}

/** The upload of this member, or null when it is gone, expired or someone else's. */
export async function loadUpload(
  db: Database,
  id: string,
  memberId: string,
  now: Date,
): Promise<Upload | null> {
  const row = await UPLOADS.load(db.knex, id);
  if (!row || row.memberId !== memberId || row.expiresAt <= now.toISOString()) return null;
  return row.payload;
}
