import { useEffect, useState } from 'preact/hooks';
import { ApiError, del, post } from '../api';
import { appHeld } from '../factors';
import type { RecoveryCodesResponse, TotpEnrolmentResponse } from '../types';
import { Confirm } from '../ui/dialog';
import { QrCode } from '../ui/qr-code';
import { RecoveryCodesDialog } from '../ui/recovery-codes-dialog';
import { attempt, ErrorNote } from '../ui/use-load';

/**
 * The authenticator app (contract §19): set up with a QR code drawn in the page and the first
 * code, which shows the recovery codes once; removed after a confirmation.
 */
export function AuthenticatorApp(props: { secondFactor: boolean; passkeys: number | null; onChanged: () => void }) {
  const [held, setHeld] = useState<boolean | null>(null);
  const [enrolment, setEnrolment] = useState<TotpEnrolmentResponse | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [removing, setRemoving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (props.passkeys === null) return;
    appHeld(props.secondFactor).then(setHeld, (e: unknown) => setError(e instanceof ApiError ? e.message : String(e)));
  }, [props.secondFactor, props.passkeys]);

  const start = () =>
    attempt(async () => {
      try {
        setEnrolment(await post<TotpEnrolmentResponse>('/auth/second-factor/totp'));
      } catch (e) {
        // Set up already (in another tab): the page shows it so, with the API's text.
        if (e instanceof ApiError && e.status === 409) setHeld(true);
        throw e;
      }
    }, setError);

  return (
    <section class="card" aria-labelledby="authenticator-title">
      <h2 id="authenticator-title">Authenticator app</h2>
      <ErrorNote text={error} />
      {held === null && <p role="status">Loading…</p>}
      {held === false && !enrolment && (
        <>
          <p>
            Not set up. An app such as a password manager or an authenticator shows a new 6-digit code every 30 seconds;
            sign-in and sensitive actions then ask for it.
          </p>
          <div class="actions">
            <button type="button" onClick={() => void start()}>
              Set up authenticator app
            </button>
          </div>
        </>
      )}
      {held === false && enrolment && (
        <Enrolment
          enrolment={enrolment}
          onCancel={() => setEnrolment(null)}
          onConfirmed={(recoveryCodes) => {
            setEnrolment(null);
            setHeld(true);
            setCodes(recoveryCodes);
            props.onChanged();
          }}
        />
      )}
      {held === true && (
        <>
          <p>Set up: sign-in asks for its code.</p>
          <div class="actions">
            <button type="button" class="danger" onClick={() => setRemoving(true)}>
              Remove authenticator app
            </button>
          </div>
        </>
      )}
      {codes && <RecoveryCodesDialog codes={codes} onClose={() => setCodes(null)} />}
      {removing && (
        <Confirm
          title="Remove the authenticator app?"
          action="Remove authenticator app"
          onClose={() => setRemoving(false)}
          onConfirm={async () => {
            if (await attempt(() => del('/auth/second-factor/totp'), setError)) {
              setHeld(false);
              props.onChanged();
            }
          }}
        >
          Its codes stop working at once. Without a passkey, the recovery codes go too, and signing in asks only for the
          password.
        </Confirm>
      )}
    </section>
  );
}

/** The QR code and the secret for typing in, then the app's first code to confirm (`Code`, `Verify`). */
function Enrolment(props: {
  enrolment: TotpEnrolmentResponse;
  onCancel: () => void;
  onConfirmed: (recoveryCodes: string[]) => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      aria-labelledby="enrolment-title"
      onSubmit={async (event) => {
        event.preventDefault();
        await attempt(async () => {
          const confirmed = await post<RecoveryCodesResponse>('/auth/second-factor/totp/confirm', {
            code: code.replace(/\s/g, ''),
          });
          props.onConfirmed(confirmed.recoveryCodes);
        }, setError);
      }}
    >
      <h3 id="enrolment-title">Scan the QR code with your app</h3>
      <QrCode text={props.enrolment.otpauthUri} label="QR code to scan with the authenticator app" />
      <p>
        Or type this key into it: <code class="secret">{props.enrolment.secret}</code>
      </p>
      <label>
        Code
        <input
          autoComplete="one-time-code"
          inputMode="numeric"
          required
          aria-describedby="enrolment-code-hint"
          value={code}
          onInput={(e) => setCode(e.currentTarget.value)}
        />
      </label>
      <small id="enrolment-code-hint">The 6-digit code the app shows now.</small>
      <ErrorNote text={error} />
      <div class="actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit">Verify</button>
      </div>
    </form>
  );
}
