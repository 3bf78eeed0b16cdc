import { useState } from 'preact/hooks';
import { get, put } from '../api';
import type { SecurityPolicyResponse } from '../types';
import { attempt, ErrorNote, useLoad } from '../ui/use-load';

/**
 * The store's security policy (contract §19): `Require a second factor`. Turning it on needs a
 * second factor of one's own (409 otherwise, shown with a way to the Account page); while it is
 * on, members without one can only reach their Account page.
 */
export function TeamPolicy(props: { base: string; onChanged: () => void }) {
  const policy = useLoad(() => get<SecurityPolicyResponse>(`${props.base}/security-policy`), [props.base]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const on = policy.data?.requireSecondFactor ?? false;
  return (
    <section class="card" aria-labelledby="policy-title">
      <h2 id="policy-title">Security</h2>
      <label>
        <input
          type="checkbox"
          role="switch"
          checked={on}
          disabled={!policy.data || busy}
          aria-describedby="policy-hint"
          onChange={async (event) => {
            const wanted = event.currentTarget.checked;
            // Drawn as the API holds it until it answers: a refusal leaves it as it was.
            event.currentTarget.checked = on;
            setBusy(true);
            const saved = await attempt(
              () => put(`${props.base}/security-policy`, { requireSecondFactor: wanted }),
              setError,
            );
            setBusy(false);
            if (saved) {
              policy.reload();
              props.onChanged();
            }
          }}
        />
        Require a second factor
      </label>
      <small id="policy-hint">
        Members without an authenticator app or a passkey are stopped at this store until they set one up on their
        Account page. Integration keys are not affected.
      </small>
      <ErrorNote text={policy.error ?? error} />
      {error === 'Set up a second factor first' && (
        <p>
          <a href="#/account">Set up your own second factor on the Account page</a>, then turn this on.
        </p>
      )}
    </section>
  );
}
