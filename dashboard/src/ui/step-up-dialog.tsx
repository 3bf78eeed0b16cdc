import { useEffect, useRef, useState } from 'preact/hooks';
import { onRecentAuthenticationRequired, post } from '../api';
import { Dialog } from './dialog';
import { attempt, ErrorNote } from './use-load';

/**
 * The answer to a sensitive action refused for want of a recent sign-in (contract §19): mounted
 * once for the whole page, it shows the password dialog whenever api.ts asks, and tells it
 * whether the session proved its account, so the action goes again without the page knowing.
 */
export function StepUpHost() {
  const [asking, setAsking] = useState<((proved: boolean) => void) | null>(null);
  useEffect(() => {
    onRecentAuthenticationRequired(() => new Promise<boolean>((resolve) => setAsking(() => resolve)));
    return () => onRecentAuthenticationRequired(null);
  }, []);
  if (!asking) return null;
  const finish = (proved: boolean) => {
    setAsking(null);
    asking(proved);
  };
  return <StepUpDialog onProved={() => finish(true)} onClose={() => finish(false)} />;
}

/** The password again, posted to `/auth/step-up`; a wrong one keeps the dialog open with the API's text. */
function StepUpDialog(props: { onProved: () => void; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  // A second Enter while the first is on its way would post (and count a failure) twice.
  const running = useRef(false);
  return (
    <Dialog title="Confirm it is you" onClose={props.onClose} describedBy="step-up-why">
      <p id="step-up-why">
        This action needs a recent sign-in. Enter your password to go on; it is asked at most every few minutes.
      </p>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          if (running.current) return;
          running.current = true;
          try {
            if (await attempt(() => post('/auth/step-up', { password }), setError)) props.onProved();
          } finally {
            running.current = false;
          }
        }}
      >
        <label>
          Password
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        <ErrorNote text={error} />
        <div class="actions">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit">Confirm</button>
        </div>
      </form>
    </Dialog>
  );
}
