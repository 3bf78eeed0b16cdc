/**
 * An outside error as a log line may carry it (contract §17: no log line holds a buyer's phone,
 * e-mail or name). What a carrier or SMTP server says after the first `: ` may quote the request
 * (the carrier's answer body, a refused recipient), so only what comes before is kept, and any
 * address or long number left in that is masked. The job's `last_error` keeps the whole text,
 * for staff, until the order is anonymised or the done job passes OUTBOX_RETENTION_DAYS.
 */
export function loggableError(message: string): string {
  const head = message.split(': ')[0];
  return head.replace(/[^\s<>()"',;:]+@[^\s<>()"',;:]+/g, '<address>').replace(/\+?\d[\d ()-]{5,}\d/g, '<number>');
}
