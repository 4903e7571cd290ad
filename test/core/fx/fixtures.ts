import { readFileSync } from 'node:fs';

import { type EcbDay, parseEcbXml } from '../../../core/fx/parse.ts';
import { storeEcbDays } from '../../../core/fx/store.ts';
import type { Database } from '../../../core/store/connection.ts';

/** The real ECB daily files kept as fixtures (see test/fixtures/ecb/README.md). */
export const ECB_FIXTURE_FILES = ['eurofxref-2024-03-13.xml', 'eurofxref-2024-06-28.xml'] as const;

export function readEcbFixture(file: (typeof ECB_FIXTURE_FILES)[number]): string {
  return readFileSync(new URL(`../../fixtures/ecb/${file}`, import.meta.url), 'utf8');
}

export function ecbFixtureDays(): EcbDay[] {
  return ECB_FIXTURE_FILES.flatMap((file) => parseEcbXml(readEcbFixture(file)));
}

/** Stores both fixture days as ECB rates, as a refresh would. */
export async function loadEcbFixtures(db: Database): Promise<void> {
  await storeEcbDays(db.knex, ecbFixtureDays());
}
