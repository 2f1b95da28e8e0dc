/** What the reports count one business document by (a row of projections/peppol-reporting). */
export interface ReportableExchange {
  direction: 'sent' | 'received';
  /** the end user this Access Point serves in the exchange: C1 when sent, C4 when received */
  end_user_id: string;
  end_user_country: string;
  document_type_id: string;
  process_id: string;
  c1_country: string;
  c4_country: string | null;
  /** the other Access Point's seat id; null: this Access Point itself (the sandbox loop) */
  peer_ap: string | null;
  transport_profile: string;
}
