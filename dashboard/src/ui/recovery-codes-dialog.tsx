import { useState } from 'preact/hooks';
import { Dialog } from './dialog';

/**
 * A new set of recovery codes, shown this once (the API keeps only their fingerprints): copy or
 * download them, then Done. As with SecretDialog, the warning comes first, not as a question on
 * the way out (contract §13).
 */
export function RecoveryCodesDialog(props: { codes: string[]; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const text = `${props.codes.join('\n')}\n`;
  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <Dialog title="Recovery codes" onClose={props.onClose} describedBy="recovery-codes-warning">
      <p class="warning" role="note" id="recovery-codes-warning">
        <strong>Shown once: keep them somewhere safe now.</strong> Each code signs you in once in place of a code from
        your authenticator app or a passkey, should you lose them. Any earlier codes stopped working.
      </p>
      <ol class="recovery-codes" aria-label="Recovery codes">
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div class="actions">
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard.writeText(text).catch(() => undefined);
            setCopied(true);
          }}
        >
          Copy
        </button>
        <button type="button" onClick={download}>
          Download
        </button>
        <button type="button" onClick={props.onClose}>
          Done
        </button>
      </div>
      {copied && <p role="status">Copied.</p>}
    </Dialog>
  );
}
