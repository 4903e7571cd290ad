import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { authenticateToken } from '../../../../core/auth/authenticate.ts';
import { memberActor, newcomerActor } from '../../../../core/kernel/actor.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';

describe('revoke_token', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('stops the token from working and can be undone', async () => {
    const token = (await h.core.invoke('create_token', h.owner, { name: 'Claude', scope: 'write' }))
      .output;
    const { output, auditId } = await h.core.invoke('revoke_token', h.owner, { id: token.id });
    expect(output).toEqual({ id: token.id, name: 'Claude', revoked_at: h.clock.now.toISOString() });
    expect(await authenticateToken(h.db, token.token, h.clock.now)).toBeNull();
    await h.core.invoke('undo', h.owner, { ids: [auditId] });
    expect(await authenticateToken(h.db, token.token, h.clock.now)).not.toBeNull();
  });

  it('changes nothing when the token is already revoked', async () => {
    const token = (await h.core.invoke('create_token', h.owner, { name: 'Claude' })).output;
    await h.core.invoke('revoke_token', h.owner, { id: token.id });
    h.clock.now = new Date(h.clock.now.getTime() + 60_000);
    const again = await h.core.invoke('revoke_token', h.owner, { id: token.id });
    expect(again.auditId).toBeNull();
    expect(again.output.revoked_at).not.toBe(h.clock.now.toISOString());
  });

  it("lets a member revoke only their own tokens, and the owner anyone's", async () => {
    const luis = await h.addMember('Luis');
    const marta = await h.addMember('Marta');
    const luisToken = (await h.core.invoke('create_token', luis, { name: 'Luis agent' })).output;
    await expect(h.core.invoke('revoke_token', marta, { id: luisToken.id })).rejects.toMatchObject({
      code: 'not_found',
    });
    await h.core.invoke('revoke_token', h.owner, { id: luisToken.id });
    expect(await authenticateToken(h.db, luisToken.token, h.clock.now)).toBeNull();
  });

  it('does not see tokens of another household', async () => {
    const created = await h.core.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Next door',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      owner_name: 'Eva',
    });
    const { household, member } = created.output;
    const eva = memberActor(
      { id: member.id, household_id: household.id, role: 'owner', language: 'en' },
      'cli',
    );
    const foreign = (await h.core.invoke('create_token', eva, { name: 'Eva agent' })).output;
    await expect(h.core.invoke('revoke_token', h.owner, { id: foreign.id })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(await authenticateToken(h.db, foreign.token, h.clock.now)).not.toBeNull();
  });
});
