import { useState } from 'preact/hooks';
import { post } from '../api';
import { PasswordRule } from '../ui/new-password-form';
import { attempt, ErrorNote } from '../ui/use-load';

/** `POST /auth/password`: the current password, then the new one; the other sessions end (contract §19). */
export function ChangePassword(props: { onChanged: () => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  return (
    <form
      class="card"
      aria-labelledby="change-password-title"
      onSubmit={async (event) => {
        event.preventDefault();
        setDone(false);
        if (await attempt(() => post('/auth/password', { currentPassword: current, newPassword: next }), setError)) {
          setCurrent('');
          setNext('');
          setDone(true);
          props.onChanged();
        }
      }}
    >
      <h2 id="change-password-title">Password</h2>
      <div class="grid">
        <label>
          Current password
          <input
            type="password"
            autoComplete="current-password"
            required
            value={current}
            onInput={(e) => setCurrent(e.currentTarget.value)}
          />
        </label>
        <label>
          New password
          <input
            type="password"
            autoComplete="new-password"
            required
            aria-describedby="change-password-rule"
            value={next}
            onInput={(e) => setNext(e.currentTarget.value)}
          />
        </label>
      </div>
      <PasswordRule id="change-password-rule" />
      <ErrorNote text={error} />
      {done && <p role="status">Password changed. Every other session of this account was signed out.</p>}
      <div class="actions">
        <button type="submit">Change password</button>
      </div>
    </form>
  );
}
