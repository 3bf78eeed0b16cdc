import { post } from '../api';
import { NewPasswordForm } from '../ui/new-password-form';

/**
 * Where a reset mail's link lands (`#/reset/<token>`, contract §19), signed in or not. The token
 * stays in the address only until the password is set: the App then leaves for sign-in, as the
 * reset ended every session of the account. A dead link gets the API's `Invalid or expired token`.
 */
export function ResetPasswordPage(props: { token: string; onDone: () => Promise<void> }) {
  return (
    <main class="sign-in">
      <h1>Set a new password</h1>
      <p>Choose the password you will sign in with. Every session of the account ends when it is set.</p>
      <NewPasswordForm
        onSubmit={async (password) => {
          await post(`/auth/password-reset/${encodeURIComponent(props.token)}`, { newPassword: password });
          await props.onDone();
        }}
      />
      <p>
        <a href="#/">Back to sign-in</a>
      </p>
    </main>
  );
}
