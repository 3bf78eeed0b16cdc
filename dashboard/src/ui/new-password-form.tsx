import { useState } from 'preact/hooks';
import { attempt, ErrorNote } from './use-load';

/**
 * What a new password must be (contract §19), read out with its field. Said, not enforced with
 * minLength: the browser's own bubble would stand in for the API's text, which the page shows.
 */
export function PasswordRule(props: { id: string }) {
  return (
    <small id={props.id}>
      12 to 256 characters; not a common password, nor one holding the e-mail's name (before the @).
    </small>
  );
}

/**
 * `New password` and `Set password`, as the reset and invitation links open them (contract §19).
 * `email` goes in a hidden username field, so a password manager files the password under it.
 */
export function NewPasswordForm(props: { email?: string; onSubmit: (password: string) => Promise<void> }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        await attempt(() => props.onSubmit(password), setError);
        setBusy(false);
      }}
    >
      {props.email && <input type="email" autoComplete="username" value={props.email} hidden readOnly />}
      <label>
        New password
        <input
          type="password"
          autoComplete="new-password"
          required
          aria-describedby="new-password-rule"
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
      </label>
      <PasswordRule id="new-password-rule" />
      <ErrorNote text={error} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          Set password
        </button>
      </div>
    </form>
  );
}
