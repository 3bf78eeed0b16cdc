import { useState } from 'preact/hooks';
import { get, post, setCsrfToken } from '../api';
import type { InvitationInfoResponse, InvitationMembershipResponse, LoginResponse, MeResponse } from '../types';
import { NewPasswordForm } from '../ui/new-password-form';
import { attempt, ErrorNote, useLoad } from '../ui/use-load';
import { SignInForm } from './sign-in';

/**
 * Where an invitation mail's link lands (`#/invitation/<token>`, contract §19), signed in or
 * not. Without an account for the address, a password creates it, signed in; with one, the
 * person signs in as it (or already is) and accepts. `onJoined` opens the shell in that store.
 */
export function InvitationPage(props: {
  token: string;
  me: MeResponse | null;
  onSignedIn: () => Promise<void>;
  onJoined: (brandId: number | null) => Promise<void>;
}) {
  const path = `/auth/invitations/${encodeURIComponent(props.token)}`;
  const invitation = useLoad(() => get<InvitationInfoResponse>(path), [path]);
  const info = invitation.data;
  return (
    <main class="sign-in">
      <h1>{info ? `Join ${info.brandName}` : 'Invitation'}</h1>
      <ErrorNote text={invitation.error} />
      {invitation.error && (
        <p>
          Ask whoever invited you for a new invitation, or <a href="#/">go to sign-in</a>.
        </p>
      )}
      {!info && !invitation.error && <p role="status">Loading…</p>}
      {info && (
        <>
          <dl class="facts">
            <dt>Store</dt>
            <dd>{info.brandName}</dd>
            <dt>E-mail</dt>
            <dd>{info.email}</dd>
            <dt>Permissions</dt>
            <dd>{info.permissions.join(', ')}</dd>
          </dl>
          {info.accountExists ? (
            <ExistingAccount
              path={path}
              info={info}
              me={props.me}
              onSignedIn={props.onSignedIn}
              onJoined={props.onJoined}
            />
          ) : (
            <>
              <p>Choose the password of your new account; you are signed in once it is set.</p>
              <NewPasswordForm
                email={info.email}
                onSubmit={async (password) => {
                  const session = await post<LoginResponse>(`${path}/accept`, { password });
                  setCsrfToken(session.csrfToken);
                  await props.onJoined(null);
                }}
              />
            </>
          )}
        </>
      )}
    </main>
  );
}

/** An account has the address: it accepts by being the one signed in (the API checks the same). */
function ExistingAccount(props: {
  path: string;
  info: InvitationInfoResponse;
  me: MeResponse | null;
  onSignedIn: () => Promise<void>;
  onJoined: (brandId: number | null) => Promise<void>;
}) {
  const [error, setError] = useState<string | null>(null);
  if (!props.me) {
    return (
      <>
        <p>An account with this e-mail exists. Sign in as it to accept.</p>
        <SignInForm email={props.info.email} onSignedIn={props.onSignedIn} />
      </>
    );
  }
  if (props.me.email.toLowerCase() !== props.info.email.toLowerCase()) {
    return (
      <>
        <p>
          You are signed in as {props.me.email}; the invitation is for {props.info.email}. Sign out here to sign in as
          that account.
        </p>
        <ErrorNote text={error} />
        <button
          type="button"
          onClick={() =>
            void attempt(async () => {
              await post('/auth/logout');
              setCsrfToken(null);
              await props.onSignedIn();
            }, setError)
          }
        >
          Sign out
        </button>
      </>
    );
  }
  return (
    <>
      <p>You are signed in as {props.me.email}.</p>
      <ErrorNote text={error} />
      <button
        type="button"
        onClick={() =>
          void attempt(async () => {
            const joined = await post<InvitationMembershipResponse>(`${props.path}/accept`, {});
            await props.onJoined(joined.brandId);
          }, setError)
        }
      >
        Accept invitation
      </button>
    </>
  );
}
