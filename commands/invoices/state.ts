import type { InvoiceEvent, InvoiceStatus } from '../../events/invoices.ts';
import type { DeliveryEvent, InvoiceReceived } from '../../events/delivery.ts';
import { NO_DELIVERY, deliveryStatus, evolveDelivery, type Delivery } from './delivery.ts';
import type { InvoiceContent, InvoiceTotals, RuleFinding } from './model.ts';

/** Every event of an invoice stream. */
export type InvoiceStreamEvent = InvoiceEvent | DeliveryEvent | InvoiceReceived;

/** The invoice as its events leave it: what the rules decide on, and what validation, UBL and history read. */
export type InvoiceState =
  | { status: 'none' }
  | {
      status: InvoiceStatus;
      /** the status before delivery started (draft or validated) */
      authoring_status: InvoiceStatus;
      /** `api` for invoices issued here, `peppol` for inbound copies */
      source: 'api' | 'peppol';
      invoice_id: string;
      organisation_id: string;
      company_id: string;
      workspace_id: string;
      invoice_number: string;
      content: InvoiceContent;
      totals: InvoiceTotals;
      warnings: RuleFinding[];
      delivery: Delivery;
      /** the UBL as received (inbound copies only) */
      received_ubl: string | null;
    };

export type KnownInvoice = Exclude<InvoiceState, { status: 'none' }>;

export const initialInvoiceState: InvoiceState = { status: 'none' };

export function evolveInvoice(state: InvoiceState, event: InvoiceStreamEvent): InvoiceState {
  switch (event.type) {
    case 'InvoiceCreated':
      return {
        status: 'draft', authoring_status: 'draft', source: 'api',
        invoice_id: event.data.invoice_id, organisation_id: event.data.organisation_id, company_id: event.data.company_id,
        workspace_id: event.data.workspace_id, invoice_number: event.data.content.invoice_number,
        content: event.data.content, totals: event.data.totals, warnings: event.data.warnings, delivery: NO_DELIVERY, received_ubl: null,
      };
    case 'InvoiceReceived': {
      const delivery = evolveDelivery(NO_DELIVERY, event);
      return {
        status: deliveryStatus(delivery) ?? 'delivered', authoring_status: 'draft', source: 'peppol',
        invoice_id: event.data.invoice_id, organisation_id: event.data.organisation_id, company_id: event.data.company_id,
        workspace_id: event.data.workspace_id, invoice_number: event.data.content.invoice_number,
        content: event.data.content, totals: event.data.totals, warnings: [], delivery, received_ubl: event.data.ubl,
      };
    }
    case 'InvoiceUpdated':
      if (state.status === 'none') return state;
      // a failed send that never reached the buyer can be corrected: it is a draft again, the legs reset
      return {
        ...state, status: 'draft', authoring_status: 'draft', content: event.data.content, totals: event.data.totals,
        warnings: event.data.warnings, delivery: NO_DELIVERY,
      };
    case 'InvoiceValidated':
      return state.status === 'none' ? state : { ...state, status: 'validated', authoring_status: 'validated' };
    default: {
      if (state.status === 'none') return state;
      const delivery = evolveDelivery(state.delivery, event);
      return { ...state, delivery, status: deliveryStatus(delivery) ?? state.authoring_status };
    }
  }
}
