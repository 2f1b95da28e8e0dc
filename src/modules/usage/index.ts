// The usage module's door: what other modules, the front doors and the composition root may use of it.
export { countInvoice, releaseInvoiceCount, usageCounts, type UsageCounts } from './usage.ts';
