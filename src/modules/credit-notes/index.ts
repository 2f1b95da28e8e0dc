// The credit-notes module's door: what other modules, the front doors and the composition root may use of it.
export { sendWaitingCreditNote } from './credit-note-send.ts';
