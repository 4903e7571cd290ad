import { type Actor, type Database, memberActor } from '../core/index.ts';

export class LocalActorError extends Error {
  override readonly name = 'LocalActorError';
}

interface MemberRow {
  id: string;
  household_id: string;
  name: string;
  role: string;
  language: string;
}

/**
 * The person at this machine's keyboard: the owner of the only household, or of the one named by
 * `household`, or the member named by `as` (id or name). Whoever can read the database file is
 * trusted as that household's owner, as for any local-first app.
 */
export async function resolveLocalActor(
  db: Database,
  options: { household?: string; as?: string; channel?: Actor['channel'] } = {},
): Promise<Actor> {
  const households = (await db
    .knex('households')
    .select('id', 'name')
    .orderBy('created_at')) as Array<{ id: string; name: string }>;
  if (households.length === 0)
    throw new LocalActorError(
      'There is no household yet. Create one with `exhale init` (or `exhale demo` for a demo).',
    );
  let householdId = options.household;
  if (!householdId) {
    if (households.length > 1) {
      const list = households.map((h) => `  ${h.id}  ${h.name}`).join('\n');
      throw new LocalActorError(
        `There are several households; choose one with --household ID:\n${list}`,
      );
    }
    householdId = households[0]?.id;
  }
  const members = (await db
    .knex('members')
    .where({ household_id: householdId ?? '' })
    .orderBy('created_at')) as MemberRow[];
  if (members.length === 0) throw new LocalActorError(`Household ${householdId} was not found.`);
  const wanted = options.as?.toLowerCase();
  const member = wanted
    ? members.find((m) => m.id === options.as || m.name.toLowerCase() === wanted)
    : members.find((m) => m.role === 'owner');
  if (!member)
    throw new LocalActorError(
      `No member "${options.as}" in that household. Members: ${members.map((m) => m.name).join(', ')}.`,
    );
  return memberActor(member, options.channel ?? 'cli');
}
