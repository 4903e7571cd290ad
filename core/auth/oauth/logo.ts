import type { Database } from '../../store/connection.ts';
import type { DocumentFetchOptions } from './clientDocument.ts';
import type { OAuthClient } from './clients.ts';
import { guardedGet } from './guardedFetch.ts';

/**
 * The client's logo for the consent page, which loads nothing from elsewhere: the server fetches
 * `logo_uri` under the same guards as a client metadata document (https, public addresses after
 * DNS, no redirects, a time bound), at most 64 KiB, and only as PNG, JPEG, WebP, GIF or SVG whose
 * bytes are what the type says. The page shows it as an `<img>` with a `data:` URI (CSP
 * `img-src data:`), where an SVG's script cannot run. Kept on the client's row: a logo for a day,
 * a refusal for an hour (so a slow host does not slow every page), and fetched again when
 * `logo_uri` changes. Null (the page's monogram) when there is none or it was refused.
 */
export const LOGO_MAX_BYTES = 64 * 1024;
const LOGO_TIMEOUT_MS = 5_000;
const KEEP_MS = 24 * 60 * 60_000;
const KEEP_REFUSED_MS = 60 * 60_000;

type ImageType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif' | 'image/svg+xml';

/** Whether the bytes are an image of the type the server declared (magic numbers; SVG's root). */
function looksLike(type: ImageType, body: Buffer): boolean {
  switch (type) {
    case 'image/png':
      return body
        .subarray(0, 8)
        .equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    case 'image/jpeg':
      return body.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]));
    case 'image/gif':
      return /^GIF8[79]a/.test(body.subarray(0, 6).toString('latin1'));
    case 'image/webp':
      return (
        body.subarray(0, 4).toString('latin1') === 'RIFF' &&
        body.subarray(8, 12).toString('latin1') === 'WEBP'
      );
    case 'image/svg+xml':
      return /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^>]*>\s*)?<svg[\s>]/i.test(
        body.toString('utf8'),
      );
  }
}

function imageTypeOf(header: string | undefined): ImageType | null {
  const type = (header ?? '').split(';')[0]?.trim().toLowerCase();
  const known: readonly ImageType[] = [
    'image/png',
    'image/jpeg',
    'image/webp',
    'image/gif',
    'image/svg+xml',
  ];
  return known.find((k) => k === type) ?? null;
}

/** Fetches and checks a logo; its `data:` URI, or null when it is refused for any reason. */
export async function fetchLogo(
  logoUri: string,
  options: DocumentFetchOptions = {},
): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(logoUri);
  } catch {
    return null;
  }
  try {
    const fetched = await guardedGet(
      url,
      { what: 'logo', whose: 'logo_uri' },
      'image/png, image/jpeg, image/webp, image/gif, image/svg+xml',
      {
        maxBytes: options.logoMaxBytes ?? LOGO_MAX_BYTES,
        timeoutMs: options.timeoutMs ?? LOGO_TIMEOUT_MS,
        trustedHosts: options.trustedHosts,
        ca: options.ca,
      },
    );
    const type = imageTypeOf(fetched.contentType);
    if (!type || fetched.body.length === 0 || !looksLike(type, fetched.body)) return null;
    return `data:${type};base64,${fetched.body.toString('base64')}`;
  } catch {
    return null;
  }
}

interface LogoRow {
  logo_data: string | null;
  logo_for: string | null;
  logo_checked_at: string | null;
}

/**
 * The client's logo as a `data:` URI, from its row while it is fresh, else fetched and kept.
 * Two processes fetching at once both write the same answer: the last write wins.
 */
export async function clientLogo(
  db: Database,
  client: OAuthClient,
  now: Date,
  options: DocumentFetchOptions = {},
): Promise<string | null> {
  if (!client.logoUri) return null;
  const row = (await db
    .knex('oauth_clients')
    .where({ client_id: client.clientId })
    .first('logo_data', 'logo_for', 'logo_checked_at')) as LogoRow | undefined;
  if (row && row.logo_for === client.logoUri && row.logo_checked_at) {
    const age = now.getTime() - Date.parse(row.logo_checked_at);
    if (age >= 0 && age < (row.logo_data ? KEEP_MS : KEEP_REFUSED_MS)) return row.logo_data;
  }
  const data = await fetchLogo(client.logoUri, options);
  await db.knex('oauth_clients').where({ client_id: client.clientId }).update({
    logo_data: data,
    logo_for: client.logoUri,
    logo_checked_at: now.toISOString(),
  });
  return data;
}
