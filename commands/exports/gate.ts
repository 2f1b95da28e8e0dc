import { requireFeature, type Feature } from '../limits/plans.ts';

/**
 * Which plan feature each way of taking documents out of the service needs (Authentication rule 5:
 * "CSV/PDF export" is plan-gated, 403 `feature_not_available` in every auth mode).
 *
 * - `invoice_register_csv`: the invoice list as a file for the accountant is the export the spec
 *   gates: `csv_export`.
 * - `document_pdf`: one document's PDF is NOT gated. It is the document itself, not an export of
 *   data: credit-note rule 7 has the caller hand the buyer the PDF of a credit note delivered at
 *   once, and an invoice finished by hand (mark-sent) or a buyer without an electronic address needs
 *   its PDF on every plan, Solo Free included. Gating it would leave those documents undeliverable.
 *   `pdf_export` stays the feature of exporting PDFs in bulk (many documents in one go), which is
 *   not built.
 */
export type ExportKind = 'invoice_register_csv' | 'document_pdf';

export const EXPORT_FEATURES: Readonly<Record<ExportKind, Feature | null>> = {
  invoice_register_csv: 'csv_export',
  document_pdf: null,
};

/** Refuses an export the plan lacks with 403 `feature_not_available`; an ungated one passes on every plan. */
export function requireExport(plan: string | null | undefined, kind: ExportKind): void {
  const feature = EXPORT_FEATURES[kind];
  if (feature) requireFeature(plan, feature);
}
