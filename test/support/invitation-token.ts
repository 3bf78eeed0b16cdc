import { mintAccountToken } from '../../src/identity/account-token';
import { eventually } from './eventually';
import { withClient } from './test-database';

/**
 * A working token for an invitation, for suites that read no mail: once the invitation's mail job
 * has run (minting a token only its mail knew), a token of the test's own takes its fingerprint's
 * place, exactly as the job stores one.
 */
export async function invitationToken(databaseUrl: string, invitationId: number): Promise<string> {
  await eventually(async () => {
    const done = await withClient(databaseUrl, (client) =>
      client.query(
        `SELECT 1 FROM outbox WHERE kind = 'mail.invitation' AND payload->>'invitationId' = $1 AND done_at IS NOT NULL`,
        [String(invitationId)],
      ),
    );
    if (done.rowCount !== 1) throw new Error(`the mail of invitation ${invitationId} has not been sent yet`);
  });
  const { token, hash } = mintAccountToken('invitation');
  await withClient(databaseUrl, (client) =>
    client.query('UPDATE invitations SET token_hash = $2 WHERE id = $1', [invitationId, hash]),
  );
  return token;
}
