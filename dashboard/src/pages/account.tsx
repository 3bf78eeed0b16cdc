import { useState } from 'preact/hooks';
import { get } from '../api';
import type { MeResponse, PasskeyListResponse } from '../types';
import { useLoad } from '../ui/use-load';
import { AccountActivity } from './account-activity';
import { AuthenticatorApp } from './account-authenticator';
import { AccountPasskeys } from './account-passkeys';
import { ChangePassword } from './account-password';
import { RecoveryCodes } from './account-recovery-codes';
import { AccountSessions } from './account-sessions';

/**
 * The signed-in person's own account (contract §19), whatever store is open: one card per
 * concern, each its own file. A second factor added or removed changes what `/auth/me` says
 * (sign-in and the step-up dialog ask for it then): `onMeChanged` reads it again.
 */
export function AccountPage(props: { me: MeResponse; onMeChanged: () => Promise<void> }) {
  // A changed password ends the other sessions: their list is read again.
  const [sessionsVersion, setSessionsVersion] = useState(0);
  const passkeys = useLoad(() => get<PasskeyListResponse>('/auth/passkeys'));
  const factorChanged = () => {
    passkeys.reload();
    void props.onMeChanged();
    setSessionsVersion((v) => v + 1);
  };
  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">Account</h1>
      <p>Signed in as {props.me.email}.</p>
      <ChangePassword onChanged={() => setSessionsVersion((v) => v + 1)} />
      <AuthenticatorApp
        secondFactor={props.me.secondFactor}
        passkeys={passkeys.data?.items.length ?? null}
        onChanged={factorChanged}
      />
      <AccountPasskeys passkeys={passkeys.data?.items} loadError={passkeys.error} onChanged={factorChanged} />
      {props.me.secondFactor && <RecoveryCodes />}
      <AccountSessions version={sessionsVersion} />
      <AccountActivity version={sessionsVersion} />
    </section>
  );
}
