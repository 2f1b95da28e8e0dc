import type { DataSource } from 'typeorm';
import type { Allowance } from '../../commands/credit-notes/model.ts';
import { allowanceReadKey, getAllowance } from './queries.ts';

type Found = { allowance: Allowance; version: number };

/**
 * Allowances as last computed, by invoice and the versions they were computed from: a read whose
 * versions are unchanged (a client polling, a UI reloading) costs one small query instead of
 * parsing the whole document and folding every credit note again (for a 200-line invoice with 50
 * credit notes, ~8 ms of CPU). The scoped key query runs first every time, so an entry is only
 * ever served to a caller who may see the invoice; any new event of either read model changes
 * the key. Least recently used entries go first.
 */
export class AllowanceCache {
  private readonly entries = new Map<string, Found>();

  constructor(private readonly capacity = 256) {}

  async get(db: DataSource, scope: { organisationId: string; companyId: string | null }, invoiceId: string): Promise<Found | null> {
    const key = await allowanceReadKey(db, scope, invoiceId);
    if (key === null) return null;
    const hit = this.entries.get(`${invoiceId}:${key}`);
    if (hit) {
      this.entries.delete(`${invoiceId}:${key}`);
      this.entries.set(`${invoiceId}:${key}`, hit);
      return hit;
    }
    const found = await getAllowance(db, scope, invoiceId);
    if (!found) return null;
    this.entries.set(`${invoiceId}:${found.read}`, { allowance: found.allowance, version: found.version });
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return { allowance: found.allowance, version: found.version };
  }
}
