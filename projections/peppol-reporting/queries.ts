import type { DataSource } from 'typeorm';

/** The projector's name: what read-your-writes waits for. */
export const PEPPOL_REPORTING = 'peppol-reporting';

/** The Peppol transport profile of every message this Access Point moves (AS4 profile 2.0; the sandbox stands in for it). */
export const AS4_TRANSPORT_PROFILE = 'peppol-transport-as4-v2_0';

/** One business document sent or received, with what EUSR and TSR count it by. */
export interface ReportingItem {
  direction: 'sent' | 'received';
  peppol_message_id: string;
  /** our company's participant id: C1 of a sent document, C4 of a received one */
  end_user_id: string;
  end_user_country: string;
  document_type_id: string;
  process_id: string;
  c1_country: string;
  /** known for received documents only (the receiver is our company); TSR counts countries for incoming only */
  c4_country: string | null;
  /** the other Access Point's seat id (its certificate CN); null when it is this one (the sandbox loop) or not recorded */
  peer_ap: string | null;
  transport_profile: string;
  exchanged_at: string;
}

type Row = Omit<ReportingItem, 'exchanged_at'> & { exchanged_at: Date | string };

/** The items exchanged in [from, to), oldest first. */
export async function reportingItems(db: DataSource, from: Date, to: Date): Promise<ReportingItem[]> {
  const rows: Row[] = await db.query(
    `SELECT direction, peppol_message_id, end_user_id, end_user_country, document_type_id, process_id, c1_country, c4_country, peer_ap,
       transport_profile, exchanged_at
     FROM peppol_reporting_items WHERE exchanged_at >= $1 AND exchanged_at < $2
     ORDER BY exchanged_at, direction, peppol_message_id, end_user_id`,
    [from.toISOString(), to.toISOString()],
  );
  return rows.map((r) => ({ ...r, exchanged_at: new Date(r.exchanged_at).toISOString() }));
}
