import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { documentClient, isBlockedAddress } from '../../../core/auth/oauth/clientDocument.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';

describe('Client ID Metadata Documents: SSRF guards', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('blocks private, loopback, link-local, CGNAT and mapped addresses, and lets public ones through', () => {
    for (const blocked of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
    ])
      expect(isBlockedAddress(blocked), blocked).toBe(true);
    for (const open of ['1.1.1.1', '93.184.216.34', '2606:4700::1111'])
      expect(isBlockedAddress(open), open).toBe(false);
  });

  it('refuses a document URL on 127.0.0.1, on 10.0.0.1, or on a name that resolves to loopback, before connecting', async () => {
    for (const url of [
      'https://127.0.0.1:9/client.json',
      'https://10.0.0.1/client.json',
      'https://localhost:9/client.json',
    ]) {
      await expect(documentClient(h.db, url, h.clock.now), url).rejects.toMatchObject({
        error: 'invalid_client',
        description: 'client_id host is not public',
      });
    }
  });

  it('refuses client_ids that are not https, have no path, a fragment or user info', async () => {
    for (const url of [
      'https://example.com/',
      'https://example.com/a#b',
      'https://user:pw@example.com/a',
      'https://example.com/a/../b',
    ])
      await expect(documentClient(h.db, url, h.clock.now), url).rejects.toMatchObject({
        error: 'invalid_client',
      });
    expect(await h.db.knex('oauth_clients').select('client_id')).toEqual([]);
  });
});
