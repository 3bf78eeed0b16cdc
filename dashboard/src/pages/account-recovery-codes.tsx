import { useState } from 'preact/hooks';
import { post } from '../api';
import type { RecoveryCodesResponse } from '../types';
import { Confirm } from '../ui/dialog';
import { RecoveryCodesDialog } from '../ui/recovery-codes-dialog';
import { attempt, ErrorNote } from '../ui/use-load';

/** A new set of recovery codes for an account with a second factor; the old set dies (contract §19). */
export function RecoveryCodes() {
  const [asking, setAsking] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <section class="card" aria-labelledby="recovery-codes-title">
      <h2 id="recovery-codes-title">Recovery codes</h2>
      <p>
        Each one signs you in once should you lose your authenticator app or passkeys. Used up or lost: make new ones.
      </p>
      <ErrorNote text={error} />
      <div class="actions">
        <button type="button" onClick={() => setAsking(true)}>
          New recovery codes
        </button>
      </div>
      {asking && (
        <Confirm
          title="Make new recovery codes?"
          action="New recovery codes"
          onClose={() => setAsking(false)}
          onConfirm={async () => {
            await attempt(async () => {
              setCodes((await post<RecoveryCodesResponse>('/auth/second-factor/recovery-codes')).recoveryCodes);
            }, setError);
          }}
        >
          The codes you hold now stop working at once; the new ones are shown once.
        </Confirm>
      )}
      {codes && <RecoveryCodesDialog codes={codes} onClose={() => setCodes(null)} />}
    </section>
  );
}
