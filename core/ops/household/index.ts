import { createHousehold } from './createHousehold.ts';
import { createInvite } from './createInvite.ts';
import { getHousehold } from './getHousehold.ts';
import { joinHousehold } from './joinHousehold.ts';
import { listMembers } from './listMembers.ts';
import { removeMember } from './removeMember.ts';
import { updateHousehold } from './updateHousehold.ts';
import { updateMember } from './updateMember.ts';

/** The household and its members: creating, joining, settings, invites. */
export const householdOps = [
  createHousehold,
  getHousehold,
  updateHousehold,
  listMembers,
  createInvite,
  joinHousehold,
  updateMember,
  removeMember,
] as const;
