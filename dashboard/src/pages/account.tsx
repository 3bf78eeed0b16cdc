import { useState } from 'preact/hooks';
import type { MeResponse } from '../types';
import { AccountActivity } from './account-activity';
import { ChangePassword } from './account-password';
import { AccountSessions } from './account-sessions';

/**
 * The signed-in person's own account (contract §19), whatever store is open: one card per
 * concern, each its own file, so the second factor's cards join as siblings of these.
 */
export function AccountPage(props: { me: MeResponse }) {
  // A changed password ends the other sessions: their list is read again.
  const [sessionsVersion, setSessionsVersion] = useState(0);
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">Account</h1>
      <p>Signed in as {props.me.email}.</p>
      <ChangePassword onChanged={() => setSessionsVersion((v) => v + 1)} />
      <AccountSessions version={sessionsVersion} />
      <AccountActivity version={sessionsVersion} />
    </section>
  );
}
