import { useEffect, useRef, useState } from 'preact/hooks';
import { get, onRecentAuthenticationRequired, post } from '../api';
import { appHeld } from '../factors';
import { passkeyAssertion } from '../passkey';
import type { PasskeyListResponse } from '../types';
import { Dialog } from './dialog';
import { SecondFactorForm } from './second-factor-form';
import { attempt, ErrorNote, useLoad } from './use-load';

/**
 * The answer to a sensitive action refused for want of a recent sign-in (contract §19): mounted
 * once for the whole page, it shows the dialog whenever api.ts asks, and tells it whether the
 * session proved its account, so the action goes again without the page knowing. An account with
 * a second factor proves itself with that, not the password (the API refuses the password then).
 */
export function StepUpHost(props: { secondFactor: boolean }) {
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
  const Asked = props.secondFactor ? SecondFactorStepUp : PasswordStepUp;
  return <Asked onProved={() => finish(true)} onClose={() => finish(false)} />;
}

const WHY = 'This action needs a recent sign-in; it is asked at most every few minutes.';

/** A code, a recovery code or a passkey, posted to `/auth/step-up`; a wrong one (401 `Invalid code`) keeps it open. */
function SecondFactorStepUp(props: { onProved: () => void; onClose: () => void }) {
  // Only an account holding passkeys is offered them (the API refuses their options to any other).
  const held = useLoad(async () => {
    const passkeys = (await get<PasskeyListResponse>('/auth/passkeys')).items.length;
    return { passkeys, app: await appHeld(true) };
  });
  const cancel = (
    <button type="button" onClick={props.onClose}>
      Cancel
    </button>
  );
  return (
    <Dialog title="Confirm it is you" onClose={props.onClose} describedBy="step-up-why">
      <p id="step-up-why">{WHY} Confirm with your second factor to go on.</p>
      <ErrorNote text={held.error} />
      {held.data ? (
        // A recovery code is typed in whatever the account holds besides.
        <SecondFactorForm
          code
          app={held.data.app}
          passkey={held.data.passkeys > 0 ? () => passkeyAssertion('/auth/step-up/passkey-options') : null}
          answer={async (answer) => {
            await post('/auth/step-up', answer);
            props.onProved();
          }}
          submitLabel="Confirm"
        >
          {cancel}
        </SecondFactorForm>
      ) : (
        <div class="actions">{cancel}</div>
      )}
    </Dialog>
  );
}

/** The password again, posted to `/auth/step-up`; a wrong one keeps the dialog open with the API's text. */
function PasswordStepUp(props: { onProved: () => void; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  // A second Enter while the first is on its way would post (and count a failure) twice.
  const running = useRef(false);
  return (
    <Dialog title="Confirm it is you" onClose={props.onClose} describedBy="step-up-why">
      <p id="step-up-why">{WHY} Enter your password to go on.</p>
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
