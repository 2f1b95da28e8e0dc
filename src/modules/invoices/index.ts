// The invoices module's door: what other modules, the front doors and the composition root may use of it.
export { loadCodeLists } from './code-lists-loader.ts';
export { decideOnInvoice, INVOICE_RETRIES, invoiceInTurn, systemMetadata } from './invoice-commands.ts';
export { loadInvoice } from './invoice-documents.ts';
export { createInvoice, type InvoiceDeps, invoiceVisibleTo, type InvoicingDeps, withCodeLists } from './invoices.ts';
export { companyOf, type Lookups, newLookups } from './lookups.ts';
export { invoiceBody, InvoiceListQuery, invoiceRowOf } from './routes.ts';
export { SeriesReservations } from './series-reservations.ts';
export { buildUbl, readUbl, readUblElement, type UblDocument } from './ubl/index.ts';
export { NS, XPATH_NS } from './ubl/ubl-names.ts';
export { node, nodes, text, ublDocumentType, UblReadError, withUblDocument } from './ubl/xml-reader.ts';
export { cac, cbc, type Node } from './ubl/xml-writer.ts';
